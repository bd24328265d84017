package prioritize

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// sameAsReference checks that Build and the reference implementation
// agree on traces and options: the same error, or the same summary (its
// JSON form holds every field).
func sameAsReference(t *testing.T, traces []*tracefile.Trace, opt Options) {
	t.Helper()
	got, gerr := Build(traces, opt)
	want, werr := refBuild(traces, opt)
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%+v: error %v, reference %v", opt, gerr, werr)
	}
	if gerr != nil {
		return
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("%+v: summaries differ\nBuild:     %s\nreference: %s", opt, g, w)
	}
}

var referenceOptions = func() []Options {
	var opts []Options
	for _, split := range []string{"", "marks", "none", "idle=1us", "idle=1ms", "at=Name", "at=Stop.Code"} {
		for _, gor := range []string{"each", "all", "main", "prefetch"} {
			for _, run := range []string{"", "stop [23]|^$", "2/x", "nomatch"} {
				for _, frames := range []int{0, 1, 2} {
					opts = append(opts, Options{Split: split, Goroutines: gor, Run: run, Frames: frames})
				}
			}
		}
	}
	return opts
}()

func readFixture(t testing.TB, name string) *tracefile.Trace {
	tr, err := tracefile.ReadFile("../testdata/traces/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestBuildMatchesReference: the streaming Build gives the summary of the
// plain whole-trace implementation, on the recorded traces alone and
// together (in either order: they are taken by start time), with every
// split, goroutine selection, -run and -frames.
func TestBuildMatchesReference(t *testing.T) {
	bus, marks := readFixture(t, "busapp.suncat"), readFixture(t, "marks.suncat")
	sets := [][]*tracefile.Trace{{bus}, {marks}, {bus, marks}, {marks, bus}}
	// Two traces with the same start time keep the caller's order.
	same := *marks
	same.Start = bus.Start
	sets = append(sets, []*tracefile.Trace{bus, &same})
	for _, set := range sets {
		for i, opt := range referenceOptions {
			if testing.Short() && i%5 != 0 {
				continue // a fifth of the options (-race runs it -short)
			}
			sameAsReference(t, set, opt)
		}
		// The grammars cut to a few items a rule, and not cut.
		for _, items := range []int{-1, 1, 2, 5} {
			for _, split := range []string{"none", "idle=1us", "marks"} {
				sameAsReference(t, set, Options{Split: split, Items: items})
			}
		}
	}
}

// A trace made in memory may break what a decoded one guarantees: events
// whose goroutine is not their stack's, a stack used by two getters,
// unknown getters, marks at the end, pauses.
func TestBuildMatchesReferenceOddTraces(t *testing.T) {
	tr := synthetic("X@init |one A@f A@f B@g |two A@f A@f A@f B@g B@g |three |four", map[int]int64{6: 1e9})
	tr.Marks = append(tr.Marks, tracefile.Marker{Seq: 100, Kind: tracefile.KindPause})
	tr.Events[3].Entry = "main.other"
	tr.Events[4].Getter = 9
	tr.Events[5].Getter = tr.Events[2].Getter
	empty := &tracefile.Trace{Path: "empty.suncat", Start: time.Unix(1, 0)}
	for _, set := range [][]*tracefile.Trace{{tr}, {empty}, {tr, empty}} {
		for _, opt := range referenceOptions {
			sameAsReference(t, set, opt)
		}
		sameAsReference(t, set, Options{Split: "at=A", Goroutines: "other"})
	}
}

// TestNoGrammar: a summary without the grammar is the summary with it,
// but for the grammars and patterns it leaves nil: the same terminals in
// the same order (numbered by first event without the sequences), counts,
// values and findings, or the same error.
func TestNoGrammar(t *testing.T) {
	bus, marks := readFixture(t, "busapp.suncat"), readFixture(t, "marks.suncat")
	odd := synthetic("X@init |one A@f A@f B@g |two A@f A@f A@f B@g B@g |three |four", map[int]int64{6: 1e9})
	odd.Events[3].Entry = "main.other"
	odd.Events[5].Getter = odd.Events[2].Getter
	for _, set := range [][]*tracefile.Trace{{bus}, {marks}, {bus, marks}, {odd, marks}} {
		for i, opt := range referenceOptions {
			if testing.Short() && i%5 != 0 {
				continue
			}
			want, werr := Build(set, opt)
			opt.NoGrammar = true
			got, gerr := Build(set, opt)
			if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Fatalf("%+v: error %v, with the grammar %v", opt, gerr, werr)
			}
			if gerr != nil {
				continue
			}
			for _, g := range got.Groups {
				if g.Grammar != nil || g.Patterns != nil {
					t.Fatalf("%+v: group %s has a grammar or patterns", opt, g.Goroutine)
				}
			}
			for _, g := range want.Groups {
				g.Grammar, g.Patterns = nil, nil
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Fatalf("%+v: summaries differ\nwithout the grammar: %s\nwith it:             %s", opt, g, w)
			}
		}
	}
}

// TestMergeOfParts: parts built one event at a time from tracefile.DecodeFunc,
// merged, give Build's summary.
func TestMergeOfParts(t *testing.T) {
	paths := []string{"../testdata/traces/busapp.suncat", "../testdata/traces/marks.suncat"}
	for _, opt := range []Options{{}, {Split: "at=Stop.Name", Goroutines: "all"}, {Split: "idle=1ms", Run: "episode [24]"}} {
		var parts []*Part
		var traces []*tracefile.Trace
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var getters []tracefile.Getter
			if NeedsGetters(opt) {
				head, err := tracefile.DecodeFunc(path, data, func(*tracefile.Event, *tracefile.Marker) error { return nil })
				if err != nil {
					t.Fatal(err)
				}
				getters = head.Getters
			}
			p, err := NewPart(opt, getters)
			if err != nil {
				t.Fatal(err)
			}
			head, err := tracefile.DecodeFunc(path, data, p.Add)
			if err != nil {
				t.Fatal(err)
			}
			if len(head.Events) != 0 || p.Events() == 0 {
				t.Fatalf("DecodeFunc kept %d events; the part saw %d", len(head.Events), p.Events())
			}
			p.Finish(head)
			parts = append(parts, p)
			tr, _ := tracefile.ReadFile(path)
			traces = append(traces, tr)
		}
		got, err := Merge(parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		want, err := refBuild(traces, opt)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%+v: merged parts differ from the reference\n%s\n%s", opt, g, w)
		}
	}
}
