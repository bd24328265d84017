package delay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

var getters = []tracefile.Getter{
	{ID: 1, Package: "example.com/bus/model", Receiver: "*Stop", Method: "Name"},
	{ID: 2, Package: "example.com/bus/model", Receiver: "*Stop", Method: "Code"},
	{ID: 3, Package: "example.com/bus/model", Receiver: "*Route", Method: "Name"},
	{ID: 4, Package: "example.com/bus/other", Receiver: "Stop", Method: "Name"},
}

func TestResolve(t *testing.T) {
	cases := []struct {
		names []string
		want  []uint32
		err   string
	}{
		{names: []string{"(*Stop).Name"}, want: []uint32{1}},
		{names: []string{"model.(*Stop).Name"}, want: []uint32{1}},
		{names: []string{"example.com/bus/model.(*Stop).Name", "Route.Name"}, want: []uint32{1, 3}},
		{names: []string{"Stop.Code", "Stop.Code"}, want: []uint32{2}},
		{names: []string{"Stop.Name"}, err: `"Stop.Name" is ambiguous: it names example.com/bus/model.(*Stop).Name, example.com/bus/other.Stop.Name`},
		{names: []string{`model\..*Name$`}, want: []uint32{1, 3}},
		{names: []string{"Cod"}, want: []uint32{2}},
		{names: []string{"model.(*Route)"}, want: []uint32{3}},
		{names: []string{"bus/other"}, want: []uint32{4}},
		{names: []string{"Nam"}, err: `"Nam" is ambiguous: 3 getters contain it: example.com/bus/model.(*Stop).Name, example.com/bus/model.(*Route).Name, example.com/bus/other.Stop.Name`},
		{names: []string{"Stop).("}, err: `"Stop).(": no such getter; the getters are: example.com/bus/model.(*Stop).Name,`},
		{names: []string{"github.com/spf13/viper.(*Viper).ConfigFileUsed"}, err: `"github.com/spf13/viper.(*Viper).ConfigFileUsed": no such getter; the getters are: `},
		{names: []string{"Stop.Nom"}, err: `"Stop.Nom": no such getter; the getters are: example.com/bus/model.(*Stop).Name,`},
		{names: []string{"a"}, err: `"a" looks like a terminal or pattern of a summary, but no summary was given`},
		{names: nil, err: "no getter chosen"},
	}
	for _, tc := range cases {
		ids, err := Resolve(getters, tc.names, nil)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %s", tc.names, err, tc.err)
			}
			continue
		}
		if err != nil || len(ids) != len(tc.want) {
			t.Errorf("%v: %v %v, want %v", tc.names, ids, err, tc.want)
			continue
		}
		for i := range ids {
			if ids[i] != tc.want[i] {
				t.Errorf("%v: %v, want %v", tc.names, ids, tc.want)
			}
		}
	}
}

// TestResolveNoSummary: a name that can only be a summary's symbol, with
// no summary, is an error the caller can tell apart (to name its flag).
func TestResolveNoSummary(t *testing.T) {
	if _, err := Resolve(getters, []string{"a"}, nil); !errors.Is(err, ErrNoSummary) {
		t.Errorf("symbol without a summary: %v, want ErrNoSummary", err)
	}
	if _, err := Resolve(getters, []string{"Stop.Nom"}, nil); err == nil || errors.Is(err, ErrNoSummary) {
		t.Errorf("unknown getter: %v, want another error", err)
	}
}

func TestResolveFromSummary(t *testing.T) {
	lg := func(id uint32) tracefile.Getter {
		return getters[id-1]
	}
	g := &prioritize.Group{
		Terminals: []*prioritize.Terminal{{Letter: "a", Getter: lg(1)}, {Letter: "b", Getter: lg(2)}},
		// A -> a b: a nonterminal resolves through the grammar (a
		// summary keeps only the first patterns).
		Grammar: &grammar.Grammar{Terminals: []string{"a", "b"}, Start: []grammar.RP{{Sym: -1, Counts: []int{1}}},
			Rules: []grammar.Rule{{Name: "A", Body: []grammar.RP{{Sym: 0, Counts: []int{1}}, {Sym: 1, Counts: []int{1}}}}}},
	}
	sum := &prioritize.Summary{Groups: []*prioritize.Group{g}}
	if ids, err := Resolve(getters, []string{"b"}, sum); err != nil || len(ids) != 1 || ids[0] != 2 {
		t.Errorf("letter b: %v %v", ids, err)
	}
	if ids, err := Resolve(getters, []string{"A"}, sum); err != nil || len(ids) != 2 {
		t.Errorf("pattern A: %v %v", ids, err)
	}
	if _, err := Resolve(getters[1:], []string{"a"}, sum); err == nil || !strings.Contains(err.Error(), "no longer has") {
		t.Errorf("a terminal whose getter is gone: %v", err)
	}
	if _, err := Resolve(getters, []string{"Z"}, sum); err == nil || !strings.Contains(err.Error(), `"Z" is neither a symbol of the trace's summary (a b A) nor a getter`) {
		t.Errorf("an unknown symbol: %v", err)
	}
}

// runTrace makes a trace of one goroutine with a mark before each group of
// calls; calls are (getter id, time in ms) pairs.
func runTrace(subs ...[][2]int) *tracefile.Trace {
	tr := &tracefile.Trace{Path: "t.suncat"}
	seq := uint64(0)
	for i, calls := range subs {
		tr.Marks = append(tr.Marks, tracefile.Marker{Seq: seq, Kind: tracefile.KindMark, Label: "nav " + string(rune('1'+i))})
		seq++
		for _, c := range calls {
			tr.Events = append(tr.Events, tracefile.Event{Seq: seq, Time: int64(c[1]) * 1e6, Getter: uint32(c[0]), Entry: "main.main"})
			seq++
		}
	}
	return tr
}

func TestCompare(t *testing.T) {
	plain := runTrace([][2]int{{1, 0}, {2, 1}, {1, 2}}, [][2]int{{2, 10}, {2, 11}})
	// Getter 1 delayed by 10ms per call: the first navigation grows by
	// 10ms per delayed call before its last event; the second has none.
	delayed := runTrace([][2]int{{1, 0}, {2, 11}, {1, 22}}, [][2]int{{2, 40}, {2, 41}})
	rep, err := Compare([]*tracefile.Trace{plain}, []*tracefile.Trace{delayed}, []uint32{1}, 10*time.Millisecond, "marks", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	r := rep.Rows[0]
	if r.Plain != 2*time.Millisecond || r.Delayed != 22*time.Millisecond || r.Calls != 2 || r.Expected != 20*time.Millisecond || r.Verdict != Critical {
		t.Errorf("row 1: %+v", r)
	}
	if r := rep.Rows[1]; r.Calls != 0 || r.Growth != 0 || r.Verdict != Off {
		t.Errorf("row 2: %+v", r)
	}
	if rep.Verdict != Partly {
		t.Errorf("overall %q, want partly", rep.Verdict)
	}
}

func TestVerdict(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		plain, growth, expected time.Duration
		want                    string
	}{
		{1 * ms, 50 * ms, 50 * ms, Critical},
		{1 * ms, 26 * ms, 50 * ms, Critical},
		{1 * ms, 15 * ms, 50 * ms, Partly},
		{1 * ms, 2 * ms, 50 * ms, Off},
		{1 * ms, 1 * ms, 0, Off},
		{100 * ms, 60 * ms, 0, Partly}, // slower without a delayed call of its own
	}
	for _, tc := range cases {
		r := Row{Plain: tc.plain, Growth: tc.growth, Delayed: tc.plain + tc.growth, Expected: tc.expected}
		if got := verdict(r); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc, got, tc.want)
		}
	}
}

func TestPackageOf(t *testing.T) {
	for name, want := range map[string]string{
		"github.com/spf13/viper.(*Viper).ConfigFileUsed": "github.com/spf13/viper",
		"example.com/bus/other.Stop.Name":                "example.com/bus/other",
		"example.com/bus/model.Name":                     "example.com/bus/model",
		"gopkg.in/yaml.v3.(*Node).Value":                 "gopkg.in/yaml.v3",
		"(*Stop).Name":                                   "",
		"Stop.Name":                                      "",
		"model.(*Stop).Name":                             "model",
	} {
		if got := PackageOf(name); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// A terminal of the trace that the program's table lacks names the flag
// that records its kind, unless the table records that kind already.
func TestNotFoundFlag(t *testing.T) {
	call := tracefile.Getter{ID: 1, Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: "call:sql"}
	read := tracefile.Getter{ID: 2, Package: "example.com/m", Receiver: "Task", Method: "Aliases", Field: "read:[]string"}
	getter := tracefile.Getter{ID: 3, Package: "example.com/m", Receiver: "*T", Method: "Name", Field: "name"}
	for _, tc := range []struct {
		table []tracefile.Getter
		g     tracefile.Getter
		want  string
	}{
		{nil, call, `"b": b of the trace is call database/sql.(*DB).QueryContext, recorded with -calls sql: give -calls sql`},
		{[]tracefile.Getter{{ID: 1, Package: "database/sql", Receiver: "*Tx", Method: "QueryContext", Field: "call:sql"}}, call,
			`"b": b of the trace is call database/sql.(*DB).QueryContext, which the program no longer has`},
		{[]tracefile.Getter{getter}, read, `"b": b of the trace is field read example.com/m.Task.Aliases, recorded with -reads: give -reads`},
		{nil, getter, `"b": b of the trace is getter example.com/m.(*T).Name, which the program no longer has`},
	} {
		if got := notFound(tc.table, "b", "b", tc.g).Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// A delayed getter that the run never calls is "not called", not "off
// the path"; runs without marks get a note that asks for them.
func TestCompareNotCalled(t *testing.T) {
	plain := runTrace([][2]int{{2, 0}, {2, 5}})
	delayed := runTrace([][2]int{{2, 0}, {2, 5}})
	rep, err := Compare([]*tracefile.Trace{plain}, []*tracefile.Trace{delayed}, []uint32{1}, time.Millisecond, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != NotCalled || rep.Rows[0].Verdict != NotCalled {
		t.Errorf("verdict %q, row %q; want %q", rep.Verdict, rep.Rows[0].Verdict, NotCalled)
	}
	if rep.Note != "" {
		t.Errorf("a marked run has the note %q", rep.Note)
	}
	plain.Marks, delayed.Marks = nil, nil
	rep, err = Compare([]*tracefile.Trace{plain}, []*tracefile.Trace{delayed}, []uint32{2}, time.Millisecond, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Note != NoMarks {
		t.Errorf("note %q, want %q", rep.Note, NoMarks)
	}
}
