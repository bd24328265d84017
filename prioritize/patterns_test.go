package prioritize

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/grammar"
)

// placePatterns is what Patterns made before equal places were one
// pattern: one for each place of every rule, sorted.
func placePatterns(g *Group) []Pattern {
	gr := g.Grammar
	names := symbolNames(g, coverage(gr))
	var ps []Pattern
	add := func(rule string, body []grammar.RP) {
		for i, rp := range body {
			p := Pattern{Symbol: gr.SymName(rp.Sym), Terminal: rp.Sym.IsTerminal(), Rule: rule, Position: i,
				Counts: rp.Counts, Obs: rp.Obs, order: len(ps)}
			p.Series = series(rp.Obs)
			p.Kind, p.Max, p.Trend = Classify(rp.Obs, p.Series)
			p.Terminals, p.Getters = names(rp.Sym)
			ps = append(ps, p)
		}
	}
	add("S", gr.Start)
	for _, r := range gr.Rules {
		add(r.Name, r.Body)
	}
	SortPatterns(ps, "kind")
	return ps
}

// randomGroup is a group of one goroutine over subs sub-traces of random
// runs of n terminals: a start rule of many places, many of them equal.
func randomGroup(seed int64, n, subs, events int) *Group {
	r := rand.New(rand.NewSource(seed))
	g := &Group{}
	names := make([]string, n)
	perSub, bySub := make([][]int, n), make([][][]ValueCount, n)
	for i := range names {
		names[i] = letter(i)
		g.Terminals = append(g.Terminals, &Terminal{Letter: names[i], Name: fmt.Sprintf("T.G%d", i%5)})
		perSub[i], bySub[i] = make([]int, subs), make([][]ValueCount, subs)
	}
	tr := &grammar.Trace{Names: names}
	for s := 0; s < subs; s++ {
		g.SubTraces = append(g.SubTraces, SubTrace{Label: fmt.Sprint("sub ", s)})
		var seq []int32
		for len(seq) < events {
			t := int32(r.Intn(n))
			for k := r.Intn(4) + 1; k > 0; k-- {
				seq = append(seq, t)
				perSub[t][s]++
				// Values of their own per letter's first character,
				// three of each.
				bySub[t][s] = addCount(bySub[t][s], new(map[string]int), ValueCount{Value: fmt.Sprint(r.Intn(3), names[t][:1]), Count: 1})
			}
			if r.Intn(3) == 0 { // a repeated phrase, for rules
				seq = append(seq, 0, 1, 0, 1)
			}
		}
		tr.Subs = append(tr.Subs, seq)
	}
	for i, t := range g.Terminals {
		t.SetPerSub(perSub[i], bySub[i])
	}
	g.Grammar = grammar.Build(tr, grammar.Options{})
	return g
}

// TestPatternsPlaces: the patterns are those of every place with the
// places that print the same (rule, symbol, counts, kind, max, trend)
// made one, the first kept, in the same order; Places counts them.
func TestPatternsPlaces(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		g := randomGroup(seed, 12, int(seed%3)+1, 3000)
		old := placePatterns(g)
		type key struct {
			line, rule string
			counts     string
		}
		var want []Pattern
		places := map[key]int{}
		for _, p := range old {
			k := key{PatternLine(p), p.Rule, fmt.Sprint(p.Counts)}
			if places[k]++; places[k] == 1 {
				want = append(want, p)
			}
		}
		got := Patterns(g)
		if len(got) != len(want) || len(got) >= len(old) {
			t.Fatalf("seed %d: %d patterns, want %d (of %d places)", seed, len(got), len(want), len(old))
		}
		for i := range got {
			w := want[i]
			k := key{PatternLine(w), w.Rule, fmt.Sprint(w.Counts)}
			if PatternLine(got[i]) != PatternLine(w) || got[i].Position != w.Position || !reflect.DeepEqual(got[i].Terminals, w.Terminals) || !reflect.DeepEqual(got[i].Series, w.Series) {
				t.Fatalf("seed %d: pattern %d is %q at %d, want %q at %d", seed, i, PatternLine(got[i]), got[i].Position, PatternLine(w), w.Position)
			}
			if n := places[k]; (n > 1 && got[i].Places != n) || (n == 1 && got[i].Places != 0) {
				t.Errorf("seed %d: %q stands for %d places, want %d", seed, PatternLine(got[i]), got[i].Places, n)
			}
			times := func(obs []grammar.Obs) int {
				n := 0
				for _, o := range obs {
					n += int(o.Count) * int(o.Times)
				}
				return n
			}
			sum := 0
			for _, p := range old {
				if (key{PatternLine(p), p.Rule, fmt.Sprint(p.Counts)}) == k {
					sum += times(p.Obs)
				}
			}
			if times(got[i].Obs) != sum {
				t.Errorf("seed %d: %q observes %d repetitions, want %d over its places", seed, PatternLine(got[i]), times(got[i].Obs), sum)
			}
		}
	}
}

// TestTopPatterns: keeping k patterns keeps the first k of them all and
// counts the rest by kind; the text says how many more and how to see them.
func TestTopPatterns(t *testing.T) {
	g := randomGroup(7, 12, 3, 3000)
	all := Patterns(g)
	var kinds [4]int
	for _, p := range all {
		kinds[p.Kind]++
	}
	if kinds[Constant] == 0 || kinds[Constant] == len(all) {
		t.Fatalf("kinds %v: want constant and other patterns", kinds)
	}
	for _, k := range []int{1, 5, len(all) - kinds[Constant], len(all) - 1, len(all), len(all) + 1} {
		got, more := TopPatterns(g, k)
		n := k
		if n > len(all) {
			n = len(all)
		}
		if !reflect.DeepEqual(got, all[:n]) {
			t.Errorf("k %d: not the first %d patterns", k, n)
		}
		var want [4]int
		for _, p := range all[n:] {
			want[p.Kind]++
		}
		if more != want {
			t.Errorf("k %d: %v more, want %v", k, more, want)
		}
	}
	k := len(all) - kinds[Constant]
	g.setPatterns(Options{Patterns: k})
	if g.MorePatterns != kinds[Constant] {
		t.Fatalf("MorePatterns %d, want %d", g.MorePatterns, kinds[Constant])
	}
	text := Text(g, []string{"patterns"}, SummarizeOptions{}, "kind", nil)
	if want := fmt.Sprintf("... %d more patterns (-top %d shows them)\n", kinds[Constant], len(all)); !strings.HasSuffix(text, want) {
		t.Errorf("patterns end %q, want %q", text[strings.LastIndex(text[:len(text)-1], "\n")+1:], want)
	}
	// Only constant patterns were left out: an increasing filter and
	// the strings (of the patterns that are not constant) miss none.
	for _, level := range []string{"patterns", "strings"} {
		kinds := []Kind{Increasing}
		if text := Text(g, []string{level}, SummarizeOptions{}, "kind", kinds); strings.Contains(text, "more pattern") {
			t.Errorf("%s: %q says patterns are missing", level, text)
		}
	}
	if text := Text(g, []string{"patterns"}, SummarizeOptions{}, "kind", []Kind{Constant}); !strings.Contains(text, fmt.Sprintf("... %d more patterns", kinds[Constant])) || strings.Contains(text, "(no constant patterns)") {
		t.Errorf("constant only: %q", text)
	}
	g.setPatterns(Options{})
	if len(g.Patterns) > DefaultPatterns || len(g.Patterns)+g.MorePatterns != len(all) {
		t.Errorf("default: %d patterns and %d more, want at most %d of %d", len(g.Patterns), g.MorePatterns, DefaultPatterns, len(all))
	}
}

// TestPatternValues: the values of a pattern per sub-trace, summed over
// its terminals in the order of its letters, as a plain search finds them.
func TestPatternValues(t *testing.T) {
	g := randomGroup(3, 30, 2, 2000)
	wide := 0
	for i, p := range Patterns(g) {
		if len(p.Terminals) > 3 {
			wide++
		} else if i > 20 {
			continue
		}
		want := make([][]ValueCount, len(g.SubTraces))
		for _, l := range p.Terminals {
			for _, tm := range g.Terminals {
				if tm.Letter != l {
					continue
				}
				for i := range want {
				next:
					for _, v := range tm.ValuesIn(i) {
						for k := range want[i] {
							if want[i][k].Value == v.Value {
								want[i][k].Count += v.Count
								continue next
							}
						}
						want[i] = append(want[i], v)
					}
				}
			}
		}
		if got := PatternValues(g, p); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: values %v, want %v", p.Notation(), got, want)
		}
	}
	if wide == 0 {
		t.Fatal("no pattern covers more than 3 terminals")
	}
}

// TestGroupCovers: a symbol's letters come from the grammar, kept
// patterns or not.
func TestGroupCovers(t *testing.T) {
	g := randomGroup(5, 12, 1, 2000)
	g.setPatterns(Options{Patterns: 1})
	for _, p := range Patterns(g) {
		if got := g.Covers(p.Symbol); !reflect.DeepEqual(got, p.Terminals) {
			t.Errorf("Covers(%s) = %v, want %v", p.Symbol, got, p.Terminals)
		}
	}
	if got := g.Covers("ZZZ"); got != nil {
		t.Errorf("Covers(ZZZ) = %v, want nil", got)
	}
}
