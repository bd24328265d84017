package prioritize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/grammar"
)

// TestGrammarLevelsBounded: the Full and the Summarized Grammar, and the
// grammar's JSON, grow with what is distinct (the rules, 100 items
// each), not with the places of the grammar: with four times the events
// of the same 200 call sites, the whole grammar's text is four times
// longer and what the summary prints is not. The line that says what
// was left out counts it exactly, and -top that long shows it all.
func TestGrammarLevelsBounded(t *testing.T) {
	levels := []string{"full", "summarized"}
	var shown, whole []int
	for _, perSub := range []int{5000, 20000} {
		data := manyPlaces(200, perSub)
		s, _ := summarizeData(t, data, Options{}, nil)
		ws, _ := summarizeData(t, data, Options{Items: -1}, nil)
		g, wg := s.Groups[0], ws.Groups[0].Grammar
		// What 100 items a rule leave out, from the whole grammar.
		left, rules, longest := 0, 0, 0
		for _, n := range bodyLens(wg.Start, wg.Rules) {
			if n > DefaultItems {
				left, rules = left+n-DefaultItems, rules+1
			}
			longest = max(longest, n)
		}
		if rules == 0 {
			t.Fatalf("%d events a sub-trace: no rule has more than %d items", perSub, DefaultItems)
		}
		out := Text(g, levels, SummarizeOptions{Min: 3}, "kind", nil)
		note := fmt.Sprintf("... %d more items in %s (-top %d shows them)\n", left, plural(rules, "rule"), longest)
		if strings.Count(out, note) != 2 {
			t.Errorf("%d events a sub-trace: want %q under both grammars in:\n%s", perSub, note, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if _, items, ok := strings.Cut(l, " -> "); ok && len(strings.Fields(items)) > DefaultItems+1 {
				t.Errorf("%d items in %.60s...", len(strings.Fields(items)), l)
			}
		}
		data2, err := json.Marshal(g.Grammar)
		if err != nil {
			t.Fatal(err)
		}
		shown = append(shown, len(out)+len(data2))
		whole = append(whole, len(Text(ws.Groups[0], levels, SummarizeOptions{Min: 3}, "kind", nil)))

		// -top longest: the Full Grammar whole, and no note.
		all, _ := summarizeData(t, data, Options{Items: longest}, nil)
		if got, want := Text(all.Groups[0], []string{"full"}, SummarizeOptions{}, "kind", nil), "\n== Full Grammar\n"+wg.String(); got != want {
			t.Errorf("%d events a sub-trace: -top %d does not show the whole grammar", perSub, longest)
		}
	}
	t.Logf("printed %d and %d bytes; the whole grammars %d and %d", shown[0], shown[1], whole[0], whole[1])
	if whole[1] < 3*whole[0] {
		t.Fatalf("the whole grammar grew from %d to %d bytes: the trace does not grow its places", whole[0], whole[1])
	}
	if shown[1] > shown[0]*5/4 {
		t.Errorf("the grammars printed grew from %d to %d bytes with the places", shown[0], shown[1])
	}
}

// bodyLens returns the number of items of S and of each rule.
func bodyLens(start []grammar.RP, rules []grammar.Rule) []int {
	out := []int{len(start)}
	for _, r := range rules {
		out = append(out, len(r.Body))
	}
	return out
}

// failAfter is a writer that takes n bytes, then fails.
type failAfter struct {
	n   int
	got []byte
}

var errFull = errors.New("disk full")

func (w *failAfter) Write(p []byte) (int, error) {
	if len(w.got)+len(p) > w.n {
		k := w.n - len(w.got)
		w.got = append(w.got, p[:k]...)
		return k, errFull
	}
	w.got = append(w.got, p...)
	return len(p), nil
}

// WriteText writes what Text returns, and stops at the first error of
// its writer, which it returns.
func TestWriteTextError(t *testing.T) {
	s, _ := summarizeData(t, manyPlaces(200, 20000), Options{Items: -1}, nil)
	g := s.Groups[0]
	levels := []string{"count", "full", "summarized", "patterns", "strings"}
	want := Text(g, levels, SummarizeOptions{Min: 3}, "kind", nil)
	if len(want) < 200<<10 {
		t.Fatalf("%d bytes of text: want more than the writer's buffers", len(want))
	}
	var all bytes.Buffer
	if err := WriteText(&all, g, levels, SummarizeOptions{Min: 3}, "kind", nil); err != nil || all.String() != want {
		t.Fatalf("WriteText: %v, %d bytes, want Text's %d", err, all.Len(), len(want))
	}
	w := &failAfter{n: len(want) / 2}
	if err := WriteText(w, g, levels, SummarizeOptions{Min: 3}, "kind", nil); !errors.Is(err, errFull) {
		t.Fatalf("WriteText to a full writer: %v, want %v", err, errFull)
	}
	if string(w.got) != want[:len(w.got)] {
		t.Errorf("what was written before the error is not Text's start")
	}
}
