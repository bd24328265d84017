package grammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseText(t *testing.T) {
	cases := []struct {
		in    string
		names []string
		subs  [][]int32
	}{
		{"", nil, [][]int32{nil}},
		{"a b a", []string{"a", "b"}, [][]int32{{0, 1, 0}}},
		{"\ta\n\nb  a\r\n", []string{"a", "b"}, [][]int32{{0, 1, 0}}},
		{"a $ b a", []string{"a", "b"}, [][]int32{{0}, {1, 0}}},
		{"$ a $$ $", []string{"a", "$$"}, [][]int32{nil, {0, 1}, nil}},
		{"x$ $x", []string{"x$", "$x"}, [][]int32{{0, 1}}},
	}
	for _, tc := range cases {
		tr, err := ParseText(strings.NewReader(tc.in))
		if err != nil {
			t.Fatalf("ParseText(%q): %v", tc.in, err)
		}
		if !reflect.DeepEqual(tr.Names, tc.names) || !reflect.DeepEqual(tr.Subs, tc.subs) {
			t.Errorf("ParseText(%q) = %q %v, want %q %v", tc.in, tr.Names, tr.Subs, tc.names, tc.subs)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestParseTextReadError(t *testing.T) {
	_, err := ParseText(failingReader{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("ParseText(failing reader) error = %v, want the read error", err)
	}
}

// formatText writes tr in the text form that ParseText reads.
func formatText(tr *Trace) string {
	var subs []string
	for _, s := range tr.Subs {
		toks := make([]string, len(s))
		for i, id := range s {
			toks[i] = tr.Names[id]
		}
		subs = append(subs, strings.Join(toks, " "))
	}
	return strings.Join(subs, " $ ")
}

// FuzzParseText checks that any input parses into a consistent trace that
// survives formatting and parsing again, and that compressing it does not
// panic.
func FuzzParseText(f *testing.F) {
	f.Add("a b b b a b b b b")
	f.Add("a a b $ a a a b $ a a a a b")
	f.Add("$ $\t\n$x x$ \xff\xfe a")
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := ParseText(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, n := range tr.Names {
			if n == "$" || n == "" || seen[n] || strings.ContainsAny(n, " \t\n") {
				t.Fatalf("bad terminal name %q in %q", n, tr.Names)
			}
			seen[n] = true
		}
		events := 0
		for _, s := range tr.Subs {
			for _, id := range s {
				if id < 0 || int(id) >= len(tr.Names) {
					t.Fatalf("terminal id %d out of range", id)
				}
			}
			events += len(s)
		}
		if tokens := len(strings.Fields(in)) - (len(tr.Subs) - 1); tokens != events {
			t.Fatalf("%d events, want %d", events, tokens)
		}
		again, err := ParseText(strings.NewReader(formatText(tr)))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, tr) {
			t.Fatalf("round trip changed the trace: %+v -> %+v", tr, again)
		}
		if events <= 200 {
			_ = Build(tr, Options{}).String()
		}
	})
}

// FuzzGrammarJSON decodes arbitrary bytes as the JSON form: decoding must
// fail cleanly or give a grammar that prints and encodes stably.
func FuzzGrammarJSON(f *testing.F) {
	for _, in := range []string{"a b b b a b b b b", figure5(), ""} {
		g := Build(mustParse(f, in), Options{})
		data, err := json.Marshal(g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version":1,"start":[{"sym":"Q","terminal":false}]}`))
	// A grammar cut to one item a rule and one observation an item.
	cut, err := json.Marshal(Build(mustParse(f, "a b b a b b b $ a b a b b $ c a b"), Options{}).Cut(1))
	if err != nil || !bytes.Contains(cut, []byte(`"more"`)) || !bytes.Contains(cut, []byte(`"moreObs"`)) {
		f.Fatalf("the cut seed (%v) has nothing left out: %s", err, cut)
	}
	f.Add(cut)
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Grammar
		if err := json.Unmarshal(data, &g); err != nil {
			return
		}
		text := g.String()
		enc, err := json.Marshal(&g)
		if err != nil {
			t.Fatalf("encoding a decoded grammar: %v", err)
		}
		var back Grammar
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("decoding our own encoding: %v\n%s", err, enc)
		}
		if back.String() != text {
			t.Fatalf("round trip changed the grammar:\n%s\nvs\n%s", text, back.String())
		}
		enc2, err := json.Marshal(&back)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("second encoding differs (%v):\n%s\n%s", err, enc, enc2)
		}
	})
}

func mustParse(tb testing.TB, in string) *Trace {
	tb.Helper()
	tr, err := ParseText(strings.NewReader(in))
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}
