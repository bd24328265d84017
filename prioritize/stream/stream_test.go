package stream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// traceDir writes n copies of each recorded trace into a directory.
func traceDir(t *testing.T, n int) []string {
	return testtrace.Copies(t, n, "../../testdata/traces/busapp.suncat", "../../testdata/traces/marks.suncat")
}

// load loads the trace files at paths.
func load(tb testing.TB, paths ...string) []*tracefile.File {
	files := make([]*tracefile.File, len(paths))
	for i, p := range paths {
		f, err := tracefile.Load(p)
		if err != nil {
			tb.Fatal(err)
		}
		files[i] = f
	}
	return files
}

// TestSummarize: reading several traces one at a time or in parallel,
// each straight into its part (its sub-traces compressed by its reader),
// gives the summary of the decoded traces (prioritize.Build), and counts
// every event and file.
func TestSummarize(t *testing.T) {
	files := traceDir(t, 3)
	var traces []*tracefile.Trace
	events := 0
	for _, f := range files {
		tr, err := tracefile.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
		events += len(tr.Events)
	}
	for i, opt := range []prioritize.Options{{}, {Split: "none", Goroutines: "all"}, {Split: "at=Stop.Code", Run: "#[13]"}, {Frames: 1}, {Split: "idle=1ms"}} {
		want, err := prioritize.Build(traces, opt)
		if err != nil {
			t.Fatal(err)
		}
		loaded := load(t, files...)
		cfg := Config{Counts: NewCounts(loaded), Readers: []int{0, 1, 3}[i%3]} // 0: one per CPU
		got, err := Summarize(loaded, opt, cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got.Summary)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%+v, %d readers: streamed summary differs from the decoded traces'", opt, cfg.Readers)
		}
		c := cfg.Counts
		if got.Events != events || int(c.Events.Load()) != events || c.FilesDone.Load() != int64(len(files)) || c.Files != len(files) || c.Bytes.Load() != c.BytesTotal {
			t.Errorf("%+v: %d events, counted %d, %d of %d files done, %d of %d bytes; want %d events, %d files",
				opt, got.Events, c.Events.Load(), c.FilesDone.Load(), c.Files, c.Bytes.Load(), c.BytesTotal, events, len(files))
		}
		for i, tr := range got.Traces {
			full := traces[i]
			if tr.Path != files[i] || len(tr.Events) != 0 || tr.Start != full.Start || got.Ends[i] != full.Events[len(full.Events)-1].Time {
				t.Errorf("trace %d: %s, %d events kept, end %d", i, tr.Path, len(tr.Events), got.Ends[i])
			}
		}
	}
}

// TestSummarizeErrors: a trace that does not read is its file's error,
// whichever reader met it; options the traces do not allow are an
// *OptionError holding prioritize's error.
func TestSummarizeErrors(t *testing.T) {
	files := traceDir(t, 2)
	bad := filepath.Join(t.TempDir(), "bad.suncat")
	if err := os.WriteFile(bad, []byte("SUNCATTR but not a trace at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, readers := range []int{1, 2} {
		_, err := Summarize(load(t, files[0], bad, files[1]), prioritize.Options{}, Config{Readers: readers})
		var oe *OptionError
		if err == nil || !strings.HasPrefix(err.Error(), bad+": offset") || errors.As(err, &oe) {
			t.Errorf("bad trace, %d readers: error %v", readers, err)
		}
	}
	for _, opt := range []prioritize.Options{{Split: "weekly"}, {Run: "NoSuchTest"}, {Split: "at=Nope"}} {
		_, err := Summarize(load(t, files...), opt, Config{})
		var oe *OptionError
		var poe *prioritize.OptionError
		if !errors.As(err, &oe) || !errors.As(err, &poe) {
			t.Errorf("%+v: error %v (%T), want an *OptionError of prioritize's", opt, err, err)
		}
	}
}

// TestDecodeShares: a trace decoded into its part takes the frames of
// the equal stacks shared before (as its events have them), whichever
// readers decode it.
func TestDecodeShares(t *testing.T) {
	a, err := tracefile.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s := newStackShare()
	s.share(a)
	byFrames := map[string]*tracefile.Frame{}
	for _, st := range a.Stacks {
		if len(st.Frames) > 0 {
			byFrames[fmt.Sprint(st.Frames)] = &st.Frames[0]
		}
	}
	files := load(t, "../../testdata/traces/busapp.suncat")
	_, head, _, err := decodePart(files[0], prioritize.Options{}, NewCounts(files), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(head.Stacks) != len(a.Stacks) {
		t.Fatalf("%d stacks decoded, want %d", len(head.Stacks), len(a.Stacks))
	}
	for i, st := range head.Stacks {
		if len(st.Frames) > 0 && byFrames[fmt.Sprint(st.Frames)] != &st.Frames[0] {
			t.Errorf("stack %d (%s): its own frames, not the shared ones", i+1, st.Frames[0].Func)
		}
	}
}

// TestStackShareRoom: the room before a stack's frames (for a read's
// own frame, Stack.WithFirst) goes with the frames shared: a terminal of
// the second trace's stack shows the first frame without a copy.
func TestStackShareRoom(t *testing.T) {
	path, err := testtrace.Loops(t.TempDir(), 2000)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tracefile.ReadFile(path)
	s := newStackShare()
	s.share(a)
	s.share(b)
	first := tracefile.Frame{Func: "app.T.field"}
	checked := 0
	for i := range b.Stacks {
		fa := a.Stacks[i].Frames
		if len(fa) == 0 {
			continue
		}
		got := b.Stacks[i].WithFirst(first, 0)
		if &got[1] != &fa[0] || got[0] != first || !slices.Equal(got[1:], fa) {
			t.Fatalf("stack %d: WithFirst gave %d frames, shared %v", i+1, len(got), &got[1] == &fa[0])
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no stacks to check")
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

// TestFinishTurns: parts of bigPart events or more finish one at a time,
// under the lock the readers of one summary share, and smaller ones (or
// any, without the grammar) without it; the summary is the same.
func TestFinishTurns(t *testing.T) {
	files := traceDir(t, 3)
	opt := prioritize.Options{}
	want, err := Summarize(load(t, files...), opt, Config{Counts: NewCounts(nil), Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { bigPart, finishing = n, nil }(bigPart)
	for _, c := range []struct {
		big       int
		noGrammar bool
		locked    int // the finishes that hold the lock
	}{{1, false, len(files)}, {1 << 40, false, 0}, {1, true, 0}} {
		var active, most, locked atomic.Int32
		finishing = func(l bool) {
			if l {
				locked.Add(1)
				n := active.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(20 * time.Millisecond) // room for another reader to step in, were it let
				active.Add(-1)
			}
		}
		bigPart = c.big
		o := opt
		o.NoGrammar = c.noGrammar
		got, err := Summarize(load(t, files...), o, Config{Counts: NewCounts(nil), Readers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if int(locked.Load()) != c.locked || most.Load() > 1 {
			t.Errorf("bigPart %d, no grammar %v: %d finishes locked (want %d), at most %d at once (want 1)", c.big, c.noGrammar, locked.Load(), c.locked, most.Load())
		}
		g, _ := json.Marshal(got.Summary)
		w, _ := json.Marshal(want.Summary)
		if !c.noGrammar && !bytes.Equal(g, w) {
			t.Errorf("bigPart %d: the summary differs from one reader's", c.big)
		}
	}
}
