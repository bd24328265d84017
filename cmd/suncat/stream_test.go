package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// copies of the recorded traces in a directory, n of each.
func traceDir(t *testing.T, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for _, name := range []string{"busapp.suncat", "marks.suncat"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "traces", name))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			f := filepath.Join(dir, strings.TrimSuffix(name, ".suncat")+"-"+string(rune('a'+i))+".suncat")
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	return files
}

// TestStreamSummary: reading several traces one at a time or in
// parallel, each straight into its part (its sub-traces compressed by
// its reader), gives the summary of the decoded traces, built one after
// another.
func TestStreamSummary(t *testing.T) {
	files := traceDir(t, 3)
	set, err := readTraces(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { maxReaders = 0 }()
	for i, opt := range []prioritize.Options{{}, {Split: "none", Goroutines: "all"}, {Split: "at=Stop.Code", Run: "#[13]"}, {Frames: 1}, {Split: "idle=1ms"}} {
		want, err := summarize(set.Traces, opt)
		if err != nil {
			t.Fatal(err)
		}
		maxReaders = []int{0, 1, 3}[i%3] // 0: one per CPU
		counts := newReadCounts(files)
		got, err := streamSummary(files, opt, counts)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got.Summary)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%+v, %d readers: streamed summary differs from the decoded traces'", opt, maxReaders)
		}
		if got.Events != set.Events() || int(counts.events.Load()) != set.Events() || counts.filesDone.Load() != int64(len(files)) {
			t.Errorf("%+v: %d events, counted %d, %d files done; want %d, %d", opt, got.Events, counts.events.Load(), counts.filesDone.Load(), set.Events(), len(files))
		}
		for i, tr := range got.Traces {
			full := set.Traces[i]
			if tr.Path != files[i] || len(tr.Events) != 0 || tr.Start != full.Start || got.Ends[i] != full.Events[len(full.Events)-1].Time {
				t.Errorf("trace %d: %s, %d events kept, end %d", i, tr.Path, len(tr.Events), got.Ends[i])
			}
		}
	}
}

func TestStreamSummaryErrors(t *testing.T) {
	files := traceDir(t, 2)
	bad := filepath.Join(t.TempDir(), "bad.suncat")
	if err := os.WriteFile(bad, []byte("SUNCATTR but not a trace at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := streamSummary([]string{files[0], bad, files[1]}, prioritize.Options{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), bad+": offset") {
		t.Errorf("bad trace: error %v", err)
	}
	if _, ok := err.(usageError); ok {
		t.Errorf("a trace that does not read is misuse: %v", err)
	}
	for _, opt := range []prioritize.Options{{Split: "weekly"}, {Run: "NoSuchTest"}, {Split: "at=Nope"}} {
		if _, err := streamSummary(files, opt, nil); err == nil {
			t.Errorf("%+v: no error", opt)
		} else if _, ok := err.(usageError); !ok {
			t.Errorf("%+v: %v is not misuse", opt, err)
		}
	}
	// Options that need a trace to be wrong are checked when it is read.
	if err := checkSummaryOptions(prioritize.Options{Goroutines: "main.main", Split: "at=Nope"}); err != nil {
		t.Errorf("options a trace may allow: %v", err)
	}
}

// syncBuffer is a bytes.Buffer for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestShowProgress(t *testing.T) {
	c := &readCounts{files: 8, bytesTotal: 3 << 30}
	c.filesDone.Store(2)
	c.bytes.Store(1 << 30)
	c.events.Store(12345678)
	if got, want := c.progressLine(), "reading 2/8 files, 1.0 GB of 3.0 GB, 12,345,678 events"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	var w syncBuffer
	stop := showProgress(&w, "summary", c, 10*time.Millisecond, 10*time.Millisecond, true)
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(w.String(), "12,345,678") && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	c.filesDone.Store(8)
	time.Sleep(50 * time.Millisecond)
	stop()
	out := w.String()
	if !strings.HasPrefix(out, "\r\x1b[Ksuncat: summary: reading 2/8 files") || !strings.Contains(out, "suncat: summary: summarizing 12,345,678 events") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress written: %q", out)
	}
	// A read shorter than the delay writes nothing.
	var quiet syncBuffer
	showProgress(&quiet, "summary", c, time.Hour, time.Hour, true)()
	if quiet.String() != "" {
		t.Errorf("a quick read wrote %q", quiet.String())
	}
	// Not on a terminal: whole lines, nothing cleared.
	var lines syncBuffer
	c.filesDone.Store(2)
	stop = showProgress(&lines, "summary", c, 10*time.Millisecond, 10*time.Millisecond, false)
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(lines.String(), "\n") && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if out := lines.String(); !strings.HasPrefix(out, "suncat: summary: reading 2/8 files, 1.0 GB of 3.0 GB, 12,345,678 events\n") || strings.Contains(out, "\x1b") {
		t.Errorf("progress written off a terminal: %q", out)
	}
}

// TestKeptLine: the closing line of a long summary says what it kept.
func TestKeptLine(t *testing.T) {
	res, err := streamSummary([]string{"../../testdata/traces/marks.suncat"}, prioritize.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := res.keptLine(93*time.Second + 420*time.Millisecond)
	want := "summarized 1 traces, 7 events, in 1m33.4s; kept "
	if !strings.HasPrefix(got, want) || !strings.Contains(got, " stacks, ") || !strings.HasSuffix(got, " distinct values") {
		t.Errorf("kept line %q, want it to start with %q", got, want)
	}
}

func TestSizes(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := commas(n); got != want {
			t.Errorf("commas(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{512: "512 B", 2048: "2.0 kB", 5 << 20: "5.0 MB", 3 << 29: "1.5 GB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLoadRunStreams: diff and check read each side as summary does,
// streaming (loadRun, loadStreamed): a directory of several traces, one
// trace, and the summary -json of the directory (blanks before its '{')
// give the summaries of the traces decoded whole, and so their
// comparison is the whole traces' comparison.
func TestLoadRunStreams(t *testing.T) {
	files := traceDir(t, 3)
	dir := filepath.Dir(files[0])
	set, err := readTraces(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := prioritize.Options{Goroutines: "each", Sources: userSources()}
	wantDir, err := summarize(set.Traces, opt)
	if err != nil {
		t.Fatal(err)
	}
	wantOne, err := summarize(set.Traces[len(files)-1:], opt) // a marks trace
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(wantDir)
	if err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(jsonPath, append([]byte("\n \t"), js...), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]*prioritize.Summary{dir: wantDir, files[len(files)-1]: wantOne, jsonPath: wantDir} {
		got, _, err := loadRun(io.Discard, "diff", path, opt.Sources)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: loadRun's summary differs from the whole traces'", path)
		}
	}
	for _, base := range []string{dir, jsonPath} {
		got, err := compareRuns(io.Discard, "check", base, files[len(files)-1], "")
		if err != nil {
			t.Fatal(err)
		}
		want, err := prioritize.Compare(wantDir, wantOne, "", opt.Sources)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) || len(want.Sites) == 0 {
			t.Errorf("base %s: comparison differs from the whole traces' (%d sites)", base, len(want.Sites))
		}
	}
}

// TestStackShare: two traces' equal stacks end up with one copy of their
// frames, unchanged; different stacks keep their own.
func TestStackShare(t *testing.T) {
	a, err := tracefile.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tracefile.ReadFile("../../testdata/traces/busapp.suncat")
	other, _ := tracefile.ReadFile("../../testdata/traces/marks.suncat")
	s := newStackShare()
	s.share(a)
	s.share(other)
	s.share(b)
	for i := range a.Stacks {
		fa, fb := a.Stacks[i].Frames, b.Stacks[i].Frames
		if len(fa) == 0 {
			continue
		}
		if &fa[0] != &fb[0] || !slices.Equal(fa, fb) {
			t.Fatalf("stack %d: not shared (%p, %p) or changed", i+1, &fa[0], &fb[0])
		}
	}
	for i := range other.Stacks {
		fo := other.Stacks[i].Frames
		for j := range a.Stacks {
			if fa := a.Stacks[j].Frames; len(fo) > 0 && len(fa) > 0 && &fo[0] == &fa[0] && !slices.Equal(fo, fa) {
				t.Fatalf("stack %d of marks took different frames of busapp's stack %d", i+1, j+1)
			}
		}
	}
}

// TestByteBudget: a taker waits while others hold too much, and one
// alone takes more than the limit.
func TestByteBudget(t *testing.T) {
	b := newByteBudget(100)
	b.acquire(300) // alone: allowed past the limit
	got := make(chan bool)
	go func() {
		b.acquire(10)
		got <- true
	}()
	select {
	case <-got:
		t.Fatal("took 10 bytes while 300 of 100 were held")
	case <-time.After(50 * time.Millisecond):
	}
	b.release(300)
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting after the bytes were released")
	}
	b.acquire(90) // 10 + 90 fit
	b.release(90)
	b.release(10)
}
