package prioritize

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestClassify(t *testing.T) {
	obs := func(pairs ...int32) []grammar.Obs {
		var o []grammar.Obs
		for i := 0; i < len(pairs); i += 2 {
			o = append(o, grammar.Obs{Sub: pairs[i], Count: pairs[i+1], Times: 1})
		}
		return o
	}
	cases := []struct {
		name  string
		obs   []grammar.Obs
		kind  Kind
		max   int
		trend float64
	}{
		{"leak", obs(0, 4, 1, 5, 2, 6, 3, 7), Increasing, 7, 1},
		{"linear search", obs(0, 6, 1, 3, 2, 5, 3, 4), Varying, 6, -0.4},
		{"constant", obs(0, 2, 1, 2, 2, 2), Constant, 2, 0},
		{"shrinking", obs(0, 9, 1, 5, 2, 5), Decreasing, 9, -2},
		{"within one sub-trace", obs(0, 3, 0, 4), Increasing, 4, 1},
		// Several counts in one sub-trace: the series takes the largest.
		{"largest per sub-trace", obs(0, 1, 0, 5, 1, 2, 1, 6), Increasing, 6, 1},
	}
	for _, tc := range cases {
		k, max, trend := Classify(tc.obs, series(tc.obs))
		if k != tc.kind || max != tc.max || trend < tc.trend-1e-9 || trend > tc.trend+1e-9 {
			t.Errorf("%s: %v max %d trend %v, want %v max %d trend %v", tc.name, k, max, trend, tc.kind, tc.max, tc.trend)
		}
	}
}

func TestSummarizedGrammarFigure5(t *testing.T) {
	var subs []string
	a, ef, ij := []int{4, 5, 6, 7}, []int{3, 3, 4, 4}, []int{6, 3, 5, 4}
	for s := 0; s < 4; s++ {
		w := strings.Repeat("a ", a[s]) + "b b c c d d " + strings.Repeat("e ", ef[s]) + strings.Repeat("f ", ef[s]) +
			strings.Repeat("g h ", 4) + strings.Repeat("i j ", ij[s])
		subs = append(subs, w)
	}
	tr, _ := grammar.ParseText(strings.NewReader(strings.Join(subs, " $ ")))
	g := grammar.Build(tr, grammar.Options{})
	got := strings.Join(SummarizedGrammar(g, SummarizeOptions{Min: 3}), "\n")
	// The paper's Figure 5(c): b, c, d (count 2) elided; B and C omitted.
	want := "S -> A^4\nA -> a^<=7 ... e^<=4 f^<=4 B^4 C^<=6"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = strings.Join(SummarizedGrammar(g, SummarizeOptions{Min: 1, Detail: true}), "\n")
	if want := "S -> A^4\nA -> a^4|5|6|7 b^2 c^2 d^2 e^3|4 f^3|4 B^4 C^6|3|5|4\nB -> g h\nC -> i j"; got != want {
		t.Errorf("detail, min 1:\n%s", got)
	}
}

// synthetic builds a trace in memory: each token of events is a getter
// call "getter@caller", "|label" is a mark; ids follow first appearance.
func synthetic(events string, gaps map[int]int64) *tracefile.Trace {
	tr := &tracefile.Trace{Path: "synthetic.suncat"}
	stacks := map[string]uint32{}
	getters := map[string]uint32{}
	var now int64
	seq := uint64(0)
	for i, tok := range strings.Fields(events) {
		now += 1000 + gaps[i]
		if strings.HasPrefix(tok, "|") {
			tr.Marks = append(tr.Marks, tracefile.Marker{Seq: seq, Time: now, Kind: tracefile.KindMark, Label: tok[1:]})
			seq++
			continue
		}
		name, caller, _ := strings.Cut(tok, "@")
		gid, ok := getters[name]
		if !ok {
			gid = uint32(len(getters) + 1)
			getters[name] = gid
			tr.Getters = append(tr.Getters, tracefile.Getter{ID: gid, Package: "p", Receiver: "*T", Method: name})
		}
		sid, ok := stacks[tok]
		if !ok {
			sid = uint32(len(stacks) + 1)
			stacks[tok] = sid
			tr.Stacks = append(tr.Stacks, tracefile.Stack{ID: sid, Entry: "main.main", Frames: []tracefile.Frame{{Func: "p.(*T)." + name}, {Func: "main." + caller, File: "main.go", Line: 1}}})
		}
		tr.Events = append(tr.Events, tracefile.Event{Seq: seq, Time: now, Getter: gid, Stack: sid, Value: name + "-value", Entry: "main.main"})
		seq++
	}
	return tr
}

func TestSplits(t *testing.T) {
	tr := synthetic("X@init |one A@f A@f B@g |two A@f A@f A@f B@g B@g", map[int]int64{6: 1e9})
	cases := []struct {
		split, full string
		left        int
	}{
		{"", "S -> A^2\nA -> a^2|3 b^1|2\n", 1}, // marks by default; X before the first mark left out
		{"marks", "S -> A^2\nA -> a^2|3 b^1|2\n", 1},
		{"none", "S -> a A^2\nA -> b^2|3 c^1|2\n", 0},
		{"idle=500ms", "S -> A B\nA -> a b^2 c\nB -> b^3 c^2\n", 0},
	}
	for _, tc := range cases {
		s, err := Build([]*tracefile.Trace{tr}, Options{Split: tc.split})
		if err != nil {
			t.Fatalf("%s: %v", tc.split, err)
		}
		g := s.Groups[0]
		if got := g.Grammar.String(); got != tc.full || g.Left != tc.left {
			t.Errorf("-split %q: grammar\n%sleft %d; want\n%sleft %d", tc.split, got, g.Left, tc.full, tc.left)
		}
	}
	// at=GETTER: each call of the getter starts a sub-trace.
	at := synthetic("A@f X@h A@f A@f B@g X@h A@f A@f A@f B@g B@g", nil)
	s, err := Build([]*tracefile.Trace{at}, Options{Split: "at=X"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Groups[0].Grammar.String(), "S -> A^2\nA -> a b^2|3 c^1|2\n"; got != want || s.Groups[0].Left != 1 {
		t.Errorf("-split at=X: grammar\n%sleft %d; want\n%sleft 1", got, s.Groups[0].Left, want)
	}
	for _, bad := range []string{"idle=soon", "idle=-1s", "at=", "weekly", "at=Nope"} {
		if _, err := Build([]*tracefile.Trace{tr}, Options{Split: bad}); err == nil {
			t.Errorf("-split %q: no error", bad)
		}
	}
	// A getter that is in no getter table: say so, and name those there are.
	_, err = Build([]*tracefile.Trace{at}, Options{Split: "at=Y"})
	if want := "Split at=Y: no getter is Y; the trace has (*T).A, (*T).X, (*T).B"; err == nil || err.Error() != want {
		t.Errorf("-split at=Y: error %v, want %q", err, want)
	}
	if _, _, err := SplitEvents(at, "at=Y"); err == nil {
		t.Errorf("SplitEvents at=Y: no error")
	}
}

// TestBuildKeepsCallersOrder: Build takes traces by start time without
// reordering the caller's slice.
func TestBuildKeepsCallersOrder(t *testing.T) {
	late, early := synthetic("|x A@f", nil), synthetic("|y B@g", nil)
	late.Path, early.Path = "late.suncat", "early.suncat"
	late.Start, early.Start = time.Unix(20, 0), time.Unix(10, 0)
	in := []*tracefile.Trace{late, early}
	s, err := Build(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if in[0] != late || in[1] != early {
		t.Errorf("Build reordered its argument")
	}
	if got := strings.Join(s.Traces, " "); got != "early.suncat late.suncat" {
		t.Errorf("traces in order %s, want early first", got)
	}
	if got := s.Groups[0].SubTraces[0].Label; got != "y" {
		t.Errorf("first sub-trace %q, want the earlier trace's mark y", got)
	}
}

func loadBusApp(t testing.TB) *Summary {
	tr, err := tracefile.ReadFile("../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Build([]*tracefile.Trace{tr}, Options{Sources: NewSources(os.ReadFile)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBusAppAcceptance checks the acceptance criteria on a trace of
// the bus app's scripted scenario (four stops opened, each a sub-trace).
func TestBusAppAcceptance(t *testing.T) {
	s := loadBusApp(t)
	g := s.Groups[0]
	if g.Goroutine != "main.main" || len(g.SubTraces) != 4 {
		t.Fatalf("first group %s with %d sub-traces", g.Goroutine, len(g.SubTraces))
	}
	top := Filter(g.Patterns, []Kind{Increasing})[0]
	if !top.Terminal || len(top.Terminals) != 1 {
		t.Fatalf("top increasing pattern %s is not a terminal", top.Notation())
	}
	term := terminalByLetter(g, top.Terminals[0])
	caller, _ := term.Caller()
	if term.Name != "(*Stop).Name" || !strings.HasSuffix(caller.Func, "(*app).open.func1") {
		t.Errorf("top increasing pattern is %s from %s, want the observer's (*Stop).Name", term.Name, caller.Func)
	}
	for i := 1; i < len(top.Series); i++ {
		if top.Series[i] != top.Series[i-1]+1 {
			t.Errorf("series %v does not grow by one per sub-trace", top.Series)
		}
	}
	for i := 0; i < term.NumSubs(); i++ {
		if vs := term.ValuesIn(i); len(vs) != 1 || vs[0].Count != i+1 {
			t.Errorf("sub-trace %d: values %v, want one stop name %d times", i+1, vs, i+1)
		}
	}
	// The serialization: a nonterminal covering the route and stop names
	// read by visit, whose count grows with every navigation.
	found := false
	for _, p := range Filter(g.Patterns, []Kind{Increasing}) {
		if p.Terminal {
			continue
		}
		var fromVisit int
		for _, l := range p.Terminals {
			if c, ok := terminalByLetter(g, l).Caller(); ok && strings.HasSuffix(c.Func, "(*ViewState).visit") {
				fromVisit++
			}
		}
		if fromVisit >= 2 && len(p.Series) >= 3 {
			found = true
		}
	}
	if !found {
		t.Errorf("no increasing nested pattern over the serialization's getters")
	}
}

func terminalByLetter(g *Group, l string) *Terminal {
	for _, t := range g.Terminals {
		if t.Letter == l {
			return t
		}
	}
	return nil
}

// TestGolden compares every level of the bus app's summary with the files
// in testdata/golden (go test -update rewrites them; a mismatch leaves a
// .got file beside the golden).
func TestGolden(t *testing.T) {
	s := loadBusApp(t)
	for _, level := range Levels {
		var b bytes.Buffer
		for _, g := range s.Groups {
			b.WriteString("#### " + Header(g) + "\n")
			b.WriteString(Text(g, []string{level}, SummarizeOptions{Min: 3}, "kind", nil))
		}
		path := filepath.Join("testdata", "golden", "busapp-"+level+".txt")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(want, b.Bytes()) {
			os.WriteFile(path+".got", b.Bytes(), 0o644)
			t.Errorf("%s: output differs from %s (see %s.got)", level, path, path)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s := loadBusApp(t)
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Version != SchemaVersion || len(back.Groups) != len(s.Groups) {
		t.Fatalf("round trip lost data: version %d, %d groups", back.Version, len(back.Groups))
	}
	again, err := json.Marshal(&back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("encode(decode(x)) != x")
	}
	if back.Groups[0].Grammar.String() != s.Groups[0].Grammar.String() {
		t.Errorf("grammar changed in the round trip")
	}
}

// TestIdleSplitIgnoresOtherGoroutines: with -goroutines selecting the
// watched goroutine, background events in the gaps do not hide them.
func TestIdleSplitIgnoresOtherGoroutines(t *testing.T) {
	tr := synthetic("A@f B@g A@f B@g", map[int]int64{2: 1e9})
	// A background goroutine calls a getter every 100ms through the gap.
	var events []tracefile.Event
	for i, e := range tr.Events {
		events = append(events, e)
		if i == 1 {
			for k := int64(1); k < 10; k++ {
				events = append(events, tracefile.Event{Time: e.Time + k*1e8, Getter: e.Getter, Stack: e.Stack, Entry: "main.prefetch"})
			}
		}
	}
	tr.Events = events
	for i := range tr.Events {
		tr.Events[i].Seq = uint64(i)
	}
	all, err := Build([]*tracefile.Trace{tr}, Options{Split: "idle=500ms", Goroutines: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(all.Groups[0].SubTraces); n != 1 {
		t.Errorf("all goroutines: %d sub-traces, want 1 (the background fills the gap)", n)
	}
	main, err := Build([]*tracefile.Trace{tr}, Options{Split: "idle=500ms", Goroutines: "main.main"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(main.Groups[0].SubTraces); n != 2 {
		t.Errorf("main.main only: %d sub-traces, want 2", n)
	}
}

// TestJSONSchema freezes the JSON form's schema (version SchemaVersion):
// every path with the JSON types found there, for the bus app's summary,
// against testdata/golden/json-schema.txt (-update rewrites it). A change
// here is a change of the documented schema (README): bump SchemaVersion.
func TestJSONSchema(t *testing.T) {
	data, err := json.Marshal(loadBusApp(t))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	types := map[string]map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		kind := "null"
		switch v := v.(type) {
		case map[string]any:
			kind = "object"
			for k, x := range v {
				walk(path+"."+k, x)
			}
		case []any:
			kind = "array"
			for _, x := range v {
				walk(path+"[]", x)
			}
		case string:
			kind = "string"
		case float64:
			kind = "number"
		case bool:
			kind = "bool"
		}
		if types[path] == nil {
			types[path] = map[string]bool{}
		}
		types[path][kind] = true
	}
	walk("", v)
	var lines []string
	for p, ks := range types {
		var kinds []string
		for k := range ks {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		if p == "" {
			p = "."
		}
		lines = append(lines, p+" "+strings.Join(kinds, "|"))
	}
	sort.Strings(lines)
	got := []byte(fmt.Sprintf("# JSON schema version %d: path and JSON types\n%s\n", SchemaVersion, strings.Join(lines, "\n")))
	path := filepath.Join("testdata", "golden", "json-schema.txt")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("the JSON schema differs from %s (see %s.got); if intended, bump SchemaVersion and update the README", path, path)
	}
}

// TestTextNoPatternOfKind: a -kind filter that keeps nothing says so
// instead of leaving an empty heading.
func TestTextNoPatternOfKind(t *testing.T) {
	g := loadBusApp(t).Groups[0]
	got := Text(g, []string{"patterns"}, SummarizeOptions{}, "kind", []Kind{Decreasing})
	if want := "\n== Prioritized Patterns\n(no decreasing patterns)\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = Text(g, []string{"patterns"}, SummarizeOptions{}, "kind", []Kind{Decreasing, Varying})
	if !strings.HasSuffix(got, "(no decreasing or varying patterns)\n") {
		t.Errorf("got %q", got)
	}
	if got := Text(g, []string{"patterns"}, SummarizeOptions{}, "kind", []Kind{Increasing}); strings.Contains(got, "(no ") {
		t.Errorf("increasing patterns exist, got %q", got)
	}
}

// TestConcurrentReaders: a built Summary is read by several goroutines at
// once (the viewer renders while the CLI or a test reads); run with -race.
func TestConcurrentReaders(t *testing.T) {
	s := loadBusApp(t)
	want := Text(s.Groups[0], Levels, SummarizeOptions{Min: 3}, "kind", nil)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(by string) {
			defer wg.Done()
			for _, g := range s.Groups {
				ps := append([]Pattern(nil), g.Patterns...)
				SortPatterns(ps, by)
				for _, p := range ps {
					PatternValues(g, p)
				}
			}
			if _, err := json.Marshal(s); err != nil {
				errs <- err.Error()
			}
			if got := Text(s.Groups[0], Levels, SummarizeOptions{Min: 3}, "kind", nil); got != want {
				errs <- "text differs between readers"
			}
		}(SortKeys[i%len(SortKeys)])
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestLetters: terminals are a..z, then aa, ab, ..., zz, aaa: distinct,
// lower case (never a nonterminal's name), by first appearance.
func TestLetters(t *testing.T) {
	for i, want := range map[int]string{0: "a", 1: "b", 25: "z", 26: "aa", 27: "ab", 51: "az", 52: "ba", 701: "zz", 702: "aaa"} {
		if got := letter(i); got != want {
			t.Errorf("letter(%d) = %q, want %q", i, got, want)
		}
	}
	seen := map[string]int{}
	for i := 0; i < 30000; i++ {
		l := letter(i)
		if j, ok := seen[l]; ok {
			t.Fatalf("letter(%d) = letter(%d) = %q", i, j, l)
		}
		if strings.ToLower(l) != l {
			t.Fatalf("letter(%d) = %q is not lower case", i, l)
		}
		seen[l] = i
	}
	// 30 call sites: the 27th is aa, and the grammar prints it as such.
	var ev []string
	for i := 0; i < 30; i++ {
		ev = append(ev, fmt.Sprintf("G@f%d", i))
	}
	line := strings.Join(ev, " ")
	s, err := Build([]*tracefile.Trace{synthetic("|one "+line+" |two "+line+" "+line, nil)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Groups[0]
	if n := len(g.Terminals); n != 30 || g.Terminals[26].Letter != "aa" || g.Terminals[29].Letter != "ad" {
		t.Fatalf("%d terminals, 27th %q", n, g.Terminals[26].Letter)
	}
	if got := g.Grammar.String(); !strings.HasPrefix(got, "S -> A B\nA -> a b c ") || !strings.Contains(got, " z aa ab ac ad\n") {
		t.Errorf("grammar:\n%s", got)
	}
}

func TestCountLine(t *testing.T) {
	zeros := func(n int) []int { return make([]int, n) }
	cat := func(parts ...[]int) []int {
		var out []int
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		per   []int
		total int
		want  string
	}{
		{[]int{7}, 7, "a^7"},
		{[]int{1, 0, 0, 0, 2}, 3, "a^1|0|0|0|2"}, // short rows stay as they are
		{cat([]int{1}, zeros(91)), 1, "a^1|0(x91)"},
		{cat(zeros(3), []int{4, 0, 0, 5}, zeros(12)), 9, "a^0(x3)|4|0|0|5|0(x12)"},
		{cat([]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}), 90, "a^1|2|3|4|5|6|7|8|9|1|2|3|4|5|6|7|8|9"},
	} {
		term := &Terminal{Letter: "a", Total: tc.total}
		term.SetPerSub(tc.per, nil)
		if got := CountLine(term); got != tc.want {
			t.Errorf("CountLine(%v) = %q, want %q", tc.per, got, tc.want)
		}
	}
}
