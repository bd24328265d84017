package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/prioritize/stream"
)

// recorded are the recorded traces that the tests copy (testtrace.Copies).
var recorded = []string{"../../testdata/traces/busapp.suncat", "../../testdata/traces/marks.suncat"}

// mustLoad loads the trace files at paths (loadTraces).
func mustLoad(t *testing.T, paths ...string) []*tracefile.File {
	t.Helper()
	files, err := loadTraces(paths)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestStreamSummaryErrors: a trace that does not read is a failure,
// options the traces do not allow are misuse (exit 2), with the flag
// named (package stream tests the summaries themselves).
func TestStreamSummaryErrors(t *testing.T) {
	files := testtrace.Copies(t, 2, recorded...)
	bad := filepath.Join(t.TempDir(), "bad.suncat")
	if err := os.WriteFile(bad, []byte("SUNCATTR but not a trace at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := streamSummary(mustLoad(t, files[0], bad, files[1]), prioritize.Options{}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), bad+": offset") {
		t.Errorf("bad trace: error %v", err)
	}
	if _, ok := err.(usageError); ok {
		t.Errorf("a trace that does not read is misuse: %v", err)
	}
	for _, c := range []struct {
		opt  prioritize.Options
		flag string
	}{{prioritize.Options{Split: "weekly"}, "-split"}, {prioritize.Options{Run: "NoSuchTest"}, "-run"}, {prioritize.Options{Split: "at=Nope"}, "-split"}} {
		opt, flag := c.opt, c.flag
		if _, err := streamSummary(mustLoad(t, files...), opt, nil); err == nil {
			t.Errorf("%+v: no error", opt)
		} else if _, ok := err.(usageError); !ok || !strings.HasPrefix(err.Error(), flag+" ") {
			t.Errorf("%+v: %v is not misuse naming %s", opt, err, flag)
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
	c := &stream.Counts{Files: 8, BytesTotal: 3 << 30}
	c.FilesDone.Store(2)
	c.Bytes.Store(1 << 30)
	c.Events.Store(12345678)
	if got, want := progressLine(c), "reading 2/8 files, 1.0 GB of 3.0 GB, 12,345,678 events"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	var w syncBuffer
	stop := showProgress(&w, "summary", c, 10*time.Millisecond, 10*time.Millisecond, true)
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(w.String(), "12,345,678") && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	c.FilesDone.Store(8)
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
	c.FilesDone.Store(2)
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
	res, err := streamSummary(mustLoad(t, "../../testdata/traces/marks.suncat"), prioritize.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := keptLine(res, 93*time.Second+420*time.Millisecond)
	want := "summarized 1 traces, 7 events, in 1m33.4s; kept "
	if !strings.HasPrefix(got, want) || !strings.Contains(got, " stacks, ") || !strings.HasSuffix(got, " distinct values") {
		t.Errorf("kept line %q, want it to start with %q", got, want)
	}
}

// TestFramesHint: a summary of whole stacks that kept many times more
// stacks than it has call sites once folded (a recursion of varying
// depth) says that -frames cuts them; not with -frames, not for few
// stacks, not where stacks and sites are alike.
func TestFramesHint(t *testing.T) {
	res, err := streamSummary(mustLoad(t, "../../testdata/traces/marks.suncat"), prioritize.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	site := res.Summary.Findings.Sites[0]
	for _, tc := range []struct {
		stacks, sites, frames int
		want                  string
	}{
		{manyStacks, 1, 0, "the 100,000 stacks fold into 1 call site(s): a recursion of varying depth"},
		{manyStacks, 1, 16, ""},
		{manyStacks - 1, 1, 0, ""},
		{manyStacks, manyStacks/framesFold + 1, 0, ""},
		{manyStacks, manyStacks / framesFold, 0, "fold into 5,000 call site(s)"},
	} {
		res.Stacks = tc.stacks
		res.Summary.Findings.Sites = make([]*prioritize.Site, tc.sites)
		for i := range res.Summary.Findings.Sites {
			res.Summary.Findings.Sites[i] = site
		}
		got := framesHint(res, tc.frames)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%d stacks, %d sites, -frames %d: %q, want %q", tc.stacks, tc.sites, tc.frames, got, tc.want)
		}
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
	files := testtrace.Copies(t, 3, recorded...)
	dir := filepath.Dir(files[0])
	set, err := readTraces(mustLoad(t, files...), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A comparison's sides are summaries without grammar or patterns.
	opt := prioritize.Options{Goroutines: "each", Sources: userSources(), NoPatterns: true, NoGrammar: true}
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
		got, _, err := loadRun(io.Discard, "diff", path, opt.Sources, 0)
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
		got, err := compareRuns(io.Discard, "check", base, files[len(files)-1], compareFlags{})
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

// summarize builds the Performance Summary of traces decoded whole, to
// compare with the streamed one. Its errors are
// about the options (a -split, -goroutines or -run that the traces do not
// allow): misuse.
func summarize(traces []*tracefile.Trace, opt prioritize.Options) (*prioritize.Summary, error) {
	s, err := prioritize.Build(traces, opt)
	if err != nil {
		return nil, usagef("%w", summaryFlag(err))
	}
	return s, nil
}
