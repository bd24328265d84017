package testtrace_test

import (
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// TestSynth decodes a synthetic trace that spans several chunks and
// finds its getters, events, stacks, values and marks as written.
func TestSynth(t *testing.T) {
	s := testtrace.NewSynth("synth")
	first := s.Getters(3, true)
	a := []testtrace.Frame{{Func: "p.T.M", File: "/p/t.go", Line: 3}, {Func: "main.main", File: "/main.go", Line: 9}}
	b := []testtrace.Frame{{Func: "p.T.N", File: "/p/t.go", Line: 5}, {Func: "main.main", File: "/main.go", Line: 10}}
	const n = 200000 // about 3 MiB of events: several chunks
	s.Mark("size 1", 5)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			s.Event(first, a, "x", 1)
		} else {
			s.Event(first+2, b, "yy", 1)
		}
	}
	tr, err := tracefile.Decode("synth.suncat", s.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Problem(); p != "" || tr.ChunksInFile < 2 {
		t.Fatalf("problem %q, %d chunks", p, tr.ChunksInFile)
	}
	if len(tr.Getters) != 3 || tr.Getters[2].Method != "M3" || len(tr.Events) != n || len(tr.Marks) != 1 || tr.Marks[0].Label != "size 1" {
		t.Fatalf("%d getters (%+v), %d events, marks %+v", len(tr.Getters), tr.Getters, len(tr.Events), tr.Marks)
	}
	for i, e := range tr.Events {
		want, g, v := a, first, "x"
		if i%2 == 1 {
			want, g, v = b, first+2, "yy"
		}
		st := tr.StackOf(e.Stack)
		if e.Getter != g || e.Value != v || st == nil || len(st.Frames) != 2 || st.Frames[0].Func != want[0].Func || st.Frames[1].Line != want[1].Line {
			t.Fatalf("event %d: %+v on %+v", i, e, st)
		}
	}
}
