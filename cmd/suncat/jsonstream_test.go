package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/prioritize"
)

type jsInner struct {
	A   int                  `json:"a,omitempty"`
	B   []string             `json:"b"`
	M   map[string]int       `json:"m,omitempty"`
	K   prioritize.Kind      `json:"k"`
	T   prioritize.Terminal  `json:"t"`
	P   *prioritize.Terminal `json:"p"`
	Any any                  `json:"any"`
	R   json.RawMessage      `json:"r,omitempty"`
	X   []*jsInner           `json:"x"`
	E   struct{}             `json:"e"`
	S   []map[string]bool    `json:"s"`
	H   string               `json:"h"`
	u   int
}

type jsOuter struct {
	*jsInner
	Name  string `json:"name"`
	Skip  int    `json:"-"`
	Plain int
	List  []jsInner `json:"list"`
	Empty []int     `json:"empty"`
	Nil   []int     `json:"nil"`
}

// TestEncodeIndentedPieces: split into pieces, values of every shape the
// summary's types use (omitempty, embedded pointers, marshalers called
// through a pointer, maps, raw messages, HTML to escape, empty and nil
// slices, deeper than the pieces go, grammars written an item at a time)
// are written as json.Encoder writes them.
func TestEncodeIndentedPieces(t *testing.T) {
	var tm prioritize.Terminal
	tm.Letter = "a"
	tm.SetPerSub([]int{1, 0, 2}, [][]prioritize.ValueCount{{{Value: "<x>", Count: 1}}, nil, nil})
	in := &jsInner{B: []string{"x", "<&>"}, M: map[string]int{"z": 1, "a": 2}, K: prioritize.Increasing, T: tm, P: &tm, Any: []any{1, "s", nil},
		R: json.RawMessage(`{"q": [1, 2]}`), X: []*jsInner{{A: 1, X: []*jsInner{{X: []*jsInner{{A: 3}}}}}, nil}, S: []map[string]bool{{}, nil}, H: "</script>"}
	for name, v := range map[string]any{
		"outer":       jsOuter{jsInner: in, Name: "n", List: []jsInner{*in, {}}, Empty: []int{}},
		"outer nil":   &jsOuter{},
		"number":      3.5,
		"empty slice": []prioritize.Pattern{},
		"patterns":    []prioritize.Pattern{{Symbol: "a", Counts: []int{1, 2}, Places: 3}, {}},
		"grammar": []*grammar.Grammar{grammar.Build(&grammar.Trace{Names: []string{"a", "<b>"},
			Subs: [][]int32{{0, 1, 0, 1, 1, 0, 1}, {0, 1, 0, 1, 0, 1}}}, grammar.Options{}), nil, {}},
	} {
		var got bytes.Buffer
		if err := encodeIndented(&got, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := indented(t, v); got.String() != want {
			t.Errorf("%s: encodeIndented wrote\n%s\nwant\n%s", name, got.String(), want)
		}
	}
}
