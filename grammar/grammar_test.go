package grammar

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The golden cases of grammar-spec.md.
var specCases = []struct {
	name, input, want string
}{
	{"lossy-within-subtrace", "a b b b a b b b b", "S -> A^2\nA -> a b^3|4\n"},
	{"counts-merge", "a a a b b b b b a a a a b b b", "S -> A^2\nA -> a^3|4 b^5|3\n"},
	{"flat", "a a a a b b c c d d e e e f f f g h g h g h g h i j i j i j i j i j i j",
		"S -> a^4 b^2 c^2 d^2 e^3 f^3 A^4 B^6\nA -> g h\nB -> i j\n"},
	{"figure5", figure5(), "S -> A^4\nA -> a^4|5|6|7 b^2 c^2 d^2 e^3|4 f^3|4 B^4 C^6|3|5|4\nB -> g h\nC -> i j\n"},
	{"empty", "", "S ->\n"},
	{"only-separators", "$ $", "S ->\n"},
	{"pair", "a a", "S -> a^2\n"},
	{"single", "a", "S -> a\n"},
	// One non-empty sub-trace among separators is not Comparison Mode.
	{"one-nonempty-subtrace", "a b a b $", "S -> A^2\nA -> a b\n"},
}

// figure5 builds the paper's Figure 5 run: four sub-traces with a repeated
// 4,5,6,7 times, e and f 3,3,4,4 times, (g h) 4 times and (i j) 6,3,5,4
// times.
func figure5() string {
	a := []int{4, 5, 6, 7}
	ef := []int{3, 3, 4, 4}
	ij := []int{6, 3, 5, 4}
	var subs []string
	for s := 0; s < 4; s++ {
		var w []string
		rep := func(tok string, n int) {
			for i := 0; i < n; i++ {
				w = append(w, tok)
			}
		}
		rep("a", a[s])
		rep("b", 2)
		rep("c", 2)
		rep("d", 2)
		rep("e", ef[s])
		rep("f", ef[s])
		rep("g h", 4)
		rep("i j", ij[s])
		subs = append(subs, strings.Join(w, " "))
	}
	return strings.Join(subs, " $ ")
}

func build(t *testing.T, input string, opt Options) *Grammar {
	t.Helper()
	tr, err := ParseText(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	return Build(tr, opt)
}

func TestSpecCases(t *testing.T) {
	for _, tc := range specCases {
		for _, ref := range []bool{true, false} {
			g := build(t, tc.input, Options{Reference: ref})
			if got := g.String(); got != tc.want {
				t.Errorf("%s (reference=%v):\ngot:\n%swant:\n%s", tc.name, ref, got, tc.want)
			}
		}
	}
}

func TestObservations(t *testing.T) {
	g := build(t, figure5(), Options{})
	a := g.Rules[0].Body[0] // a^4|5|6|7 in A
	want := []Obs{{0, 4, 1}, {1, 5, 1}, {2, 6, 1}, {3, 7, 1}}
	if len(a.Obs) != len(want) {
		t.Fatalf("obs of a = %v, want %v", a.Obs, want)
	}
	for i := range want {
		if a.Obs[i] != want[i] {
			t.Fatalf("obs of a = %v, want %v", a.Obs, want)
		}
	}
	if s := g.Start[0]; s.Obs[0] != (Obs{-1, 4, 1}) {
		t.Errorf("obs of S item = %v, want sub -1 count 4", s.Obs)
	}
	// C -> i j absorbed 6+3+5+4 windows of (i j), each i with count 1.
	c := g.Rules[2]
	total := 0
	for _, o := range c.Body[0].Obs {
		total += int(o.Times)
	}
	if c.Name != "C" || total != 18 {
		t.Errorf("rule %s: i observed %d times, want C with 18", c.Name, total)
	}
}

func TestLossless(t *testing.T) {
	// Counts take part in equality: a^3 b a^4 b does not merge, while
	// exact repetitions still do.
	cases := []struct{ in, want string }{
		{"a a a b a a a a b", "S -> a^3 b a^4 b\n"},
		{"a a a b a a a b", "S -> A^2\nA -> a^3 b\n"},
		{"a b b b a b b b b", "S -> a b^3 a b^4\n"},
	}
	for _, tc := range cases {
		for _, ref := range []bool{true, false} {
			if got := build(t, tc.in, Options{Lossless: true, Reference: ref}).String(); got != tc.want {
				t.Errorf("lossless %q (reference=%v) = %q, want %q", tc.in, ref, got, tc.want)
			}
		}
	}
}

func TestNameSkipsTerminals(t *testing.T) {
	// Terminals named A and S force the first nonterminal to be B.
	got := build(t, "A S A S", Options{}).String()
	if want := "S -> B^2\nB -> A S\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNtName(t *testing.T) {
	for i, want := range map[int]string{0: "A", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ", 702: "AAA"} {
		if got := ntName(i); got != want {
			t.Errorf("ntName(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range specCases {
		g := build(t, tc.input, Options{})
		data, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var back Grammar
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if back.String() != g.String() {
			t.Errorf("%s: round trip changed the grammar:\n%s\nvs\n%s", tc.name, back.String(), g.String())
		}
		data2, _ := json.Marshal(&back)
		if string(data2) != string(data) {
			t.Errorf("%s: second encoding differs:\n%s\n%s", tc.name, data, data2)
		}
	}
}

// TestNestedObservations pins the example of the package documentation:
// observations are per item and per repetition, and sub-trace numbers skip
// empty sub-traces.
func TestNestedObservations(t *testing.T) {
	in := "$ a b b b a b b b b $ $ a b a b"
	for _, ref := range []bool{true, false} {
		g := build(t, in, Options{Reference: ref})
		if got, want := g.String(), "S -> A^2\nA -> B^2\nB -> a b^3|4|1\n"; got != want {
			t.Fatalf("reference=%v: got %q, want %q", ref, got, want)
		}
		checks := []struct {
			rp   RP
			want []Obs
		}{
			{g.Start[0], []Obs{{-1, 2, 1}}},
			{g.Rules[0].Body[0], []Obs{{0, 2, 1}, {1, 2, 1}}},
			{g.Rules[1].Body[0], []Obs{{0, 1, 2}, {1, 1, 2}}},
			{g.Rules[1].Body[1], []Obs{{0, 3, 1}, {0, 4, 1}, {1, 1, 2}}},
		}
		for i, c := range checks {
			if !reflect.DeepEqual(c.rp.Obs, c.want) {
				t.Errorf("reference=%v: item %d (%s): obs %v, want %v", ref, i, g.FormatRP(c.rp), c.rp.Obs, c.want)
			}
		}
	}
}
