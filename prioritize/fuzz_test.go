package prioritize

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// FuzzBuild summarizes every trace tracefile can decode, with each split,
// goroutine mode and -run filter, and renders every level and the JSON form: whatever a
// trace file holds, the summary must not panic, and it must be the
// reference implementation's (reference_test.go). The seeds are the recorded
// fixtures; the corpus is in testdata/fuzz/FuzzBuild.
func FuzzBuild(f *testing.F) {
	for _, p := range []string{"../testdata/traces/busapp.suncat", "../testdata/traces/marks.suncat"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
	splits := []string{"", "marks", "none", "idle=1us", "at=Name"}
	gors := []string{"each", "all", "main"}
	runs := []string{"", "sub[12]|^$", "[/]/x|(a/b)"} // mode%3 is independent of mode%5
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		tr, err := tracefile.Decode("fuzz.suncat", data)
		if err != nil {
			return
		}
		opt := Options{
			Split:      splits[int(mode)%len(splits)],
			Goroutines: gors[int(mode/8)%len(gors)],
			Frames:     int(mode / 32 % 4),
			Run:        runs[int(mode)%len(runs)],
		}
		sameAsReference(t, []*tracefile.Trace{tr}, opt)
		s, err := Build([]*tracefile.Trace{tr}, opt)
		if err != nil {
			return
		}
		run, err := compileRun(opt.Run)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range s.Groups {
			for _, st := range g.SubTraces {
				if !run.match(st.Label) {
					t.Fatalf("-run %q kept sub-trace %q", opt.Run, st.Label)
				}
			}
			Text(g, Levels, SummarizeOptions{Min: 3}, "kind", nil)
			Text(g, []string{"patterns"}, SummarizeOptions{}, "trend", []Kind{Increasing, Varying})
			for _, p := range g.Patterns {
				if p.Max <= 0 || len(p.Terminals) == 0 {
					t.Fatalf("pattern %s: max %d, terminals %v", p.Notation(), p.Max, p.Terminals)
				}
			}
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
	})
}
