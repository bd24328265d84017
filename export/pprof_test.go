package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

func busTrace(t *testing.T) *tracefile.Trace {
	t.Helper()
	tr, err := tracefile.ReadFile(filepath.Join("..", "testdata", "traces", "busapp.suncat"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// roundTrip writes the profile of tr and parses it back with the pprof
// package.
func roundTrip(t *testing.T, tr *tracefile.Trace, opt prioritize.Options) *profile.Profile {
	t.Helper()
	opt.Sources = prioritize.NewSources(os.ReadFile) // the loops of the sample apps
	s, err := prioritize.Build([]*tracefile.Trace{tr}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteProfile(&buf, s, ProfileOptions{Start: tr.Start, Program: tr.Program}); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		t.Fatalf("parsing the profile: %v", err)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	return p
}

// stackKey names a stack by its frames, leaf first, as a string.
func stackKey(fs []tracefile.Frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s:%d;", f.Func, f.File, f.Line)
	}
	return b.String()
}

func sampleKey(s *profile.Sample) string {
	var fs []tracefile.Frame
	for _, loc := range s.Location {
		if len(loc.Line) != 1 {
			return fmt.Sprintf("location %d has %d lines", loc.ID, len(loc.Line))
		}
		l := loc.Line[0]
		fs = append(fs, tracefile.Frame{Func: l.Function.Name, File: l.Function.Filename, Line: int(l.Line)})
	}
	return stackKey(fs)
}

// cell is what one sample should hold: the calls of one stack in one
// sub-trace, and the distinct values they returned.
type cell struct {
	calls  int64
	values map[string]bool
	getter string
	entry  string
}

// expected counts the events of tr by stack and sub-trace, straight from
// the trace, with the sub-traces prioritize.SplitEvents gives.
func expected(t *testing.T, tr *tracefile.Trace, split string) (map[string]*cell, int64) {
	t.Helper()
	of, subs, err := prioritize.SplitEvents(tr, split)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*cell{}
	var total int64
	for i, e := range tr.Events {
		if of[i] < 0 {
			continue
		}
		g, _ := tr.GetterOf(e.Getter)
		k := stackKey(tr.StackOf(e.Stack).Frames) + "|" + subs[of[i]].Label
		c := want[k]
		if c == nil {
			c = &cell{values: map[string]bool{}, getter: g.Name(), entry: e.Entry}
			want[k] = c
		}
		c.calls++
		c.values[e.Value] = true
		total++
	}
	return want, total
}

func TestProfileMatchesEvents(t *testing.T) {
	tr := busTrace(t)
	for _, split := range []string{"none", "marks", "idle=1ms"} {
		t.Run(split, func(t *testing.T) {
			p := roundTrip(t, tr, prioritize.Options{Split: split})
			want, total := expected(t, tr, split)
			if total == 0 {
				t.Fatal("no events in sub-traces")
			}
			if got := p.SampleType; len(got) != 2 || got[0].Type != "calls" || got[1].Type != "values" || got[0].Unit != "count" {
				t.Fatalf("sample types %v", got)
			}
			var sum int64
			for _, s := range p.Sample {
				sum += s.Value[0]
				k := sampleKey(s) + "|" + one(t, s.Label["subtrace"])
				c := want[k]
				if c == nil {
					t.Fatalf("sample %s: no such stack and sub-trace in the trace", k)
				}
				if s.Value[0] != c.calls || s.Value[1] != int64(len(c.values)) {
					t.Errorf("sample %s: calls, values %v, want %d, %d", k, s.Value, c.calls, len(c.values))
				}
				if g := one(t, s.Label["getter"]); g != c.getter {
					t.Errorf("sample %s: getter label %q, want %q", k, g, c.getter)
				}
				if g := one(t, s.Label["goroutine"]); g != c.entry {
					t.Errorf("sample %s: goroutine label %q, want %q", k, g, c.entry)
				}
				if r := s.NumLabel["repetition"]; len(r) != 1 || r[0] < 1 {
					t.Errorf("sample %s: repetition label %v", k, r)
				}
				delete(want, k)
			}
			if sum != total {
				t.Errorf("the samples hold %d calls, the trace %d events in sub-traces", sum, total)
			}
			for k := range want {
				t.Errorf("no sample for %s", k)
			}
		})
	}
}

func one(t *testing.T, vs []string) string {
	t.Helper()
	if len(vs) != 1 {
		t.Fatalf("label values %q, want one", vs)
	}
	return vs[0]
}

// The repetition label numbers the sub-traces in order: the leaking
// observer of the bus app is called once more in each.
func TestProfileRepetitions(t *testing.T) {
	p := roundTrip(t, busTrace(t), prioritize.Options{})
	got := map[int64]int64{}
	for _, s := range p.Sample {
		if len(s.Location) > 1 && s.Location[1].Line[0].Function.Name == "main.(*app).open.func1" {
			got[s.NumLabel["repetition"][0]] += s.Value[0]
		}
	}
	want := map[int64]int64{1: 1, 2: 2, 3: 3, 4: 4}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("calls from open.func1 by repetition: %v, want %v", got, want)
	}
}

// The findings' call sites and growth classes label the samples: the
// leaking observer grows linearly; the list's own view does not grow.
func TestProfileSites(t *testing.T) {
	p := roundTrip(t, busTrace(t), prioritize.Options{})
	seen := 0
	for _, s := range p.Sample {
		if len(s.Location) < 2 {
			continue
		}
		switch caller := s.Location[1].Line[0]; {
		case caller.Function.Name == "main.(*app).open.func1":
			seen++
			if site, g := s.Label["site"], s.Label["growth"]; len(site) != 1 || site[0] != "(*Stop).Name at model.(*ViewState).SetCurrent (state.go:27) via main.(*app).open.func1 (main.go:83)" || len(g) != 1 || g[0] != "linear" {
				t.Errorf("observer's sample: site %q, growth %q", site, g)
			}
		case caller.Function.Name == "main.(*app).View" && caller.Line == 97:
			seen++
			if site, g := s.Label["site"], s.Label["growth"]; len(site) != 1 || !strings.HasPrefix(site[0], "(*Stop).") || len(g) != 0 {
				t.Errorf("View's sample: site %q, growth %q", site, g)
			}
		}
	}
	if seen == 0 {
		t.Error("no sample of the observer or the view")
	}
}

func TestProfileHeader(t *testing.T) {
	tr := busTrace(t)
	p := roundTrip(t, tr, prioritize.Options{})
	if p.TimeNanos != tr.Start.UnixNano() {
		t.Errorf("time %d, want %d", p.TimeNanos, tr.Start.UnixNano())
	}
	if len(p.Mapping) != 1 || p.Mapping[0].File != tr.Program || !p.Mapping[0].HasFunctions || !p.Mapping[0].HasLineNumbers {
		t.Errorf("mapping %+v", p.Mapping)
	}
	if p.DefaultSampleType != "calls" || p.Period != 1 || p.PeriodType.Type != "calls" {
		t.Errorf("default %q, period %d %v", p.DefaultSampleType, p.Period, p.PeriodType)
	}
	// The comment names the traces as paths, not as a Go slice.
	if want := "suncat: getter calls of " + tr.Path + ", sub-traces: "; len(p.Comments) == 0 || !strings.HasPrefix(p.Comments[0], want) {
		t.Errorf("comments %q, want the first to start %q", p.Comments, want)
	}
	// The getter's function starts at the getter's declaration.
	for _, f := range p.Function {
		if f.Name == "example.com/busapp/model.(*Stop).Name" && f.StartLine == 0 {
			t.Errorf("getter function %s has no start line", f.Name)
		}
	}
}

// Profiles of two runs merge as pprof -proto merges them: the same
// stacks, every count added.
func TestProfilesMerge(t *testing.T) {
	tr := busTrace(t)
	a := roundTrip(t, tr, prioritize.Options{Split: "none"})
	later := *tr
	later.Start = tr.Start.Add(time.Hour)
	b := roundTrip(t, &later, prioritize.Options{Split: "none"})
	m, err := profile.Merge([]*profile.Profile{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Sample) != len(a.Sample) {
		t.Errorf("merged profile has %d samples, want %d", len(m.Sample), len(a.Sample))
	}
	var sum int64
	for _, s := range m.Sample {
		sum += s.Value[0]
	}
	if sum != 2*int64(len(tr.Events)) {
		t.Errorf("merged calls %d, want %d", sum, 2*len(tr.Events))
	}
}

// A call recorded in database/sql gets one sample per statement, whose
// leaf frame is named by the statement (white space folded) and whose
// label statement holds it whole; the calls the summary kept no value
// of stay on the call's own stack.
func TestProfileStatements(t *testing.T) {
	q1, q2 := "SELECT name\n\t\tFROM tags\n\t\tWHERE id = ?", "SELECT id FROM bookmarks"
	call := tracefile.Getter{ID: 1, Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: "call:sql"}
	frames := []tracefile.Frame{
		{Func: "database/sql.(*DB).QueryContext", File: "/go/src/database/sql/sql.go", Line: 1700},
		{Func: "main.list", File: "/src/app/list.go", Line: 9},
	}
	term := &prioritize.Terminal{Letter: "a", Name: "(*DB).QueryContext", Getter: call, Frames: frames, Total: 6}
	term.SetPerSub([]int{6}, [][]prioritize.ValueCount{{{Value: q1, Count: 3}, {Value: q2, Count: 2}}})
	s := &prioritize.Summary{Traces: []string{"t.suncat"}, Split: "none", Groups: []*prioritize.Group{{
		Goroutine: "main.main", SubTraces: []prioritize.SubTrace{{Label: "n=2"}},
		Terminals: []*prioritize.Terminal{term},
	}}}
	p := Profile(s, ProfileOptions{})
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, smp := range p.Sample {
		leaf := smp.Location[0].Line[0].Function.Name
		got[leaf+" | "+strings.Join(smp.Label["statement"], "")] += smp.Value[0]
	}
	want := map[string]int64{
		"sql: SELECT name FROM tags WHERE id = ? | " + q1: 3,
		"sql: SELECT id FROM bookmarks | " + q2:           2,
		"database/sql.(*DB).QueryContext | ":              1,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("samples by leaf and statement:\n got %v\nwant %v", got, want)
	}
	if !strings.Contains(p.Comments[0], "suncat: calls of t.suncat") {
		t.Errorf("comment %q does not name calls", p.Comments[0])
	}
}
