package prioritize

import (
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// sessionTrace is one trace of a session of two builds of one program:
// a getter Name and a read of field X, from the same two call sites in
// each build, the read recorded at line runtimeLine of suncat's runtime
// (the runtime's lines move from one suncat to the next). nameFirst says
// which the getter table numbers first.
func sessionTrace(t *testing.T, nameFirst bool, runtimeLine, calls int) *tracefile.Trace {
	t.Helper()
	s := testtrace.NewSynth("app")
	var name, read uint32
	if nameFirst {
		name = s.Getter("Name", "name")
		read = s.Getter("X", tracefmt.ReadPrefix+"X")
	} else {
		read = s.Getter("X", tracefmt.ReadPrefix+"X")
		name = s.Getter("Name", "name")
	}
	caller := []testtrace.Frame{{Func: "main.loop", File: "/src/p/main.go", Line: 12}, {Func: "main.main", File: "/src/p/main.go", Line: 5}}
	getter := append([]testtrace.Frame{{Func: "example.com/p.(*T).Name", File: "/src/p/t.go", Line: 30}}, caller...)
	reader := append([]testtrace.Frame{{Func: "example.com/p/suncatrt.ReadIntF[...]", File: "/src/p/suncatrt/events.go", Line: runtimeLine}}, caller...)
	if runtimeLine == 0 {
		reader = caller // version 6: a read's stack starts at the reading function
	}
	for i := 0; i < calls; i++ {
		s.Event(name, getter, "n", 10)
		s.Event(read, reader, "1", 10)
	}
	tr, err := tracefile.Decode("app.suncat", s.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestMergeSitesAcrossBuilds: traces of one program built twice (its
// getters numbered in another order, the runtime's line of a read
// elsewhere) still have one terminal for each getter and the frames it
// shows, whose counts are those of both traces. Keyed by the getter's
// number and the runtime's frame, a session counted its call sites
// once per build and split each site's counts between them. A trace of
// version 6, whose reads have no runtime frame (line 0 here), merges with
// an older one the same way.
func TestMergeSitesAcrossBuilds(t *testing.T) {
	for _, lines := range [][2]int{{129, 131}, {129, 0}} {
		mergeSitesAcrossBuilds(t, lines[0], lines[1])
	}
}

func mergeSitesAcrossBuilds(t *testing.T, lineA, lineB int) {
	a := sessionTrace(t, true, lineA, 2)
	b := sessionTrace(t, false, lineB, 5)
	s, err := Build([]*tracefile.Trace{a, b}, Options{Split: "none", NoGrammar: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Groups) != 1 {
		t.Fatalf("%d groups, want 1", len(s.Groups))
	}
	g := s.Groups[0]
	if len(g.Terminals) != 2 {
		for _, term := range g.Terminals {
			t.Logf("%s %s %v", term.Letter, term.Name, term.Frames[0])
		}
		t.Fatalf("runtime lines %d and %d: %d terminals, want 2 (Name and X)", lineA, lineB, len(g.Terminals))
	}
	for _, term := range g.Terminals {
		var calls []int
		for _, c := range term.Subs() {
			calls = append(calls, c.Calls)
		}
		if len(calls) != 2 || calls[0] != 2 || calls[1] != 5 {
			t.Errorf("runtime lines %d and %d: %s: calls by sub-trace %v, want [2 5]", lineA, lineB, term.Name, calls)
		}
	}
}
