package prioritize

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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
	return sessionTraceIn(t, "/src/p", nameFirst, runtimeLine, calls)
}

// sessionTraceIn is sessionTrace of a build whose sources are in dir.
func sessionTraceIn(t *testing.T, dir string, nameFirst bool, runtimeLine, calls int) *tracefile.Trace {
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
	caller := []testtrace.Frame{{Func: "main.loop", File: dir + "/main.go", Line: 12}, {Func: "main.main", File: dir + "/main.go", Line: 5}}
	getter := append([]testtrace.Frame{{Func: "example.com/p.(*T).Name", File: dir + "/t.go", Line: 30}}, caller...)
	reader := append([]testtrace.Frame{{Func: "example.com/p/suncatrt.ReadIntF[...]", File: dir + "/suncatrt/events.go", Line: runtimeLine}}, caller...)
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

// TestMergeSitesAcrossDirs: two builds of one program from two
// directories (a checkout per CI job, a copy per size) name its files by
// two absolute paths; their call sites are still one each (the cobra
// trial's traces shared none, and nothing grew).
func TestMergeSitesAcrossDirs(t *testing.T) {
	mergeSitesOf(t, sessionTraceIn(t, "/home/ci/job1/p", true, 0, 2), sessionTraceIn(t, "/home/ci/job2/p", false, 0, 5), "two directories")
}

func mergeSitesAcrossBuilds(t *testing.T, lineA, lineB int) {
	mergeSitesOf(t, sessionTrace(t, true, lineA, 2), sessionTrace(t, false, lineB, 5), fmt.Sprintf("runtime lines %d and %d", lineA, lineB))
}

// mergeSitesOf checks that traces a (2 calls a site) and b (5) have one
// terminal for each of Name and X.
func mergeSitesOf(t *testing.T, a, b *tracefile.Trace, what string) {
	t.Helper()
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
		t.Fatalf("%s: %d terminals, want 2 (Name and X)", what, len(g.Terminals))
	}
	for _, term := range g.Terminals {
		var calls []int
		for _, c := range term.Subs() {
			calls = append(calls, c.Calls)
		}
		if len(calls) != 2 || calls[0] != 2 || calls[1] != 5 {
			t.Errorf("%s: %s: calls by sub-trace %v, want [2 5]", what, term.Name, calls)
		}
	}
}

// TestValuesKeptBounded: a call site that returns more distinct values
// than a cell keeps (maxCellValues) keeps its first ones, with their
// counts, and counts every call: the others are Unkept, as the text and
// the JSON form say.
func TestValuesKeptBounded(t *testing.T) {
	s := testtrace.NewSynth("app")
	pos := s.Getter("Pos", tracefmt.ReadPrefix+"int")
	stack := []testtrace.Frame{{Func: "main.lex", File: "/src/p/lex.go", Line: 7}, {Func: "main.main", File: "/src/p/main.go", Line: 5}}
	const distinct = maxCellValues + 500
	calls := 0
	for i := 0; i < distinct; i++ {
		for k := 0; k < 1+i%3; k++ { // each value once to three times
			s.Event(pos, stack, strconv.Itoa(i), 1)
			calls++
		}
	}
	tr, err := tracefile.Decode("app.suncat", s.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Build([]*tracefile.Trace{tr}, Options{Split: "none", NoGrammar: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Groups) != 1 || len(sum.Groups[0].Terminals) != 1 {
		t.Fatalf("%d groups, want one with one terminal", len(sum.Groups))
	}
	term := sum.Groups[0].Terminals[0]
	kept := 0
	for i, v := range term.Values {
		kept += v.Count
		if want := strconv.Itoa(i); v.Value != want || v.Count != 1+i%3 {
			t.Fatalf("value %d: %q x%d, want %q x%d", i, v.Value, v.Count, want, 1+i%3)
		}
	}
	if len(term.Values) != maxCellValues || term.Total != calls || term.Unkept != calls-kept {
		t.Errorf("%d values, %d calls, %d unkept; want %d, %d, %d", len(term.Values), term.Total, term.Unkept, maxCellValues, calls, calls-kept)
	}
	if n, c := sum.Unkept(); n != 1 || c != term.Unkept {
		t.Errorf("Summary.Unkept() = %d, %d; want 1, %d", n, c, term.Unkept)
	}
	if txt := Text(sum.Groups[0], []string{"strings"}, SummarizeOptions{}, "", nil); !strings.Contains(txt, fmt.Sprintf("; %d more calls returned values not kept", term.Unkept)) {
		t.Errorf("the strings level does not say what was not kept:\n%s", txt)
	}
	b, err := json.Marshal(term)
	if err != nil {
		t.Fatal(err)
	}
	var back Terminal
	if err := json.Unmarshal(b, &back); err != nil || back.Unkept != term.Unkept || back.Total != calls {
		t.Errorf("JSON round trip: unkept %d, total %d, err %v; want %d, %d", back.Unkept, back.Total, err, term.Unkept, calls)
	}
}
