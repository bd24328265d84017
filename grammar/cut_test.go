package grammar

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// manyPlaces is a trace whose grammar has a start rule of thousands of
// items (a random walk over 30 terminals) and a rule used in every one
// of 300 sub-traces, so that its items gather hundreds of observations.
func manyPlaces(n int) *Trace {
	r := rand.New(rand.NewSource(1))
	tr := &Trace{}
	for i := 0; i < 30; i++ {
		tr.Names = append(tr.Names, fmt.Sprintf("t%d", i))
	}
	tr.Names = append(tr.Names, "x", "y")
	x, y := int32(30), int32(31)
	for s := 0; s < 300; s++ {
		var sub []int32
		for i := 0; i < n/300; i++ {
			sub = append(sub, int32(r.Intn(30)))
		}
		for k := 0; k < 2+s%5; k++ { // x y^(1+s%7), repeated
			sub = append(sub, x)
			for j := 0; j <= s%7; j++ {
				sub = append(sub, y)
			}
		}
		tr.Subs = append(tr.Subs, sub)
	}
	return tr
}

// TestCut checks Cut against the grammar it cuts: each rule keeps its
// first k items and each item its first k observations, the counts of
// what is left out add up, nothing longer than k survives, and the
// text and JSON say so.
func TestCut(t *testing.T) {
	g := Build(manyPlaces(30000), Options{})
	whole := g.String()
	const k = 20
	c := g.Cut(k)
	if g.String() != whole {
		t.Fatal("Cut changed the grammar it cut")
	}
	var want Left
	check := func(name string, body, cut []RP, more int) {
		n := min(len(body), k)
		if len(cut) != n || more != len(body)-n {
			t.Fatalf("rule %s: %d items and %d more, want %d and %d", name, len(cut), more, n, len(body)-n)
		}
		if more > 0 {
			want.Items += more
			want.Rules++
		}
		want.Longest = max(want.Longest, len(body))
		for i, rp := range cut {
			o := body[i]
			want.MostObs = max(want.MostObs, len(o.Obs))
			keep := min(len(o.Obs), k)
			want.Obs += len(o.Obs) - keep
			if rp.Sym != o.Sym || !reflect.DeepEqual(rp.Counts, o.Counts) ||
				!reflect.DeepEqual(rp.Obs, o.Obs[:keep]) || int(rp.MoreObs) != len(o.Obs)-keep {
				t.Fatalf("rule %s item %d: %+v, want the first %d observations of %+v", name, i, rp, k, o)
			}
		}
	}
	check("S", g.Start, c.Start, c.StartMore)
	if len(c.Rules) != len(g.Rules) {
		t.Fatalf("%d rules, want %d", len(c.Rules), len(g.Rules))
	}
	for i, r := range g.Rules {
		if c.Rules[i].Name != r.Name {
			t.Fatalf("rule %d is %s, want %s", i, c.Rules[i].Name, r.Name)
		}
		check(r.Name, r.Body, c.Rules[i].Body, c.Rules[i].More)
	}
	if got := c.Left(); got != want {
		t.Errorf("Left() = %+v, want %+v", got, want)
	}
	t.Logf("left out: %+v", want)
	if want.Items == 0 || want.Obs == 0 {
		t.Fatalf("the trace cuts no item or no observation: %+v", want)
	}
	if got := g.Left(); got.Items != 0 || got.Obs != 0 || got.Longest != want.Longest {
		t.Errorf("Left() of the whole grammar = %+v", got)
	}
	checkCutText(t, whole, c.String(), k)
	// The JSON keeps what was left out, and reads back the same.
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Grammar
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Left() != want || back.String() != c.String() {
		t.Errorf("the JSON lost what was left out: %+v", back.Left())
	}
	if c.Cut(k) != c || g.Cut(0) != g || g.Cut(want.Longest+want.MostObs) != g {
		t.Error("Cut of a grammar with nothing longer than k is not the grammar itself")
	}
}

// checkCutText checks the text of a grammar cut to k items a rule
// against the text of the whole one: each line the start of the whole
// line, of at most k items, and ending in " ..." when it was cut.
func checkCutText(t *testing.T, whole, cut string, k int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(cut, "\n"), "\n")
	wholeLines := strings.Split(whole, "\n")
	for i, l := range lines {
		items := strings.Fields(l)[2:]
		cut := strings.HasSuffix(l, " ...")
		if cut {
			items = items[:len(items)-1]
		}
		if len(items) > k || cut != (len(items) == k && len(strings.Fields(wholeLines[i]))-2 > k) {
			t.Errorf("line %d has %d items (cut %v): %.80s", i, len(items), cut, l)
		}
		if !strings.HasPrefix(wholeLines[i]+" ", strings.Join(strings.Fields(l)[:2+len(items)], " ")+" ") {
			t.Errorf("line %d is not the start of the whole one: %.80s", i, l)
		}
	}
}

// TestCutJSONErrors: a negative count of what was left out is refused.
func TestCutJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"version":1,"start":[],"moreStart":-1}`, "negative moreStart -1"},
		{`{"version":1,"start":[],"rules":[{"name":"A","body":[],"more":-2}]}`, `rule "A": negative more -2`},
		{`{"version":1,"terminals":["a"],"start":[{"sym":"a","terminal":true,"moreObs":-3}]}`, `item "a": negative moreObs -3`},
	} {
		var g Grammar
		if err := json.Unmarshal([]byte(c.in), &g); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
}
