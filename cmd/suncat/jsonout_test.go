package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// indented is what a json.Encoder with SetIndent("", "  ") writes.
func indented(t *testing.T, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestEncodeIndented: encodeIndented writes what json.Encoder writes
// with two spaces of indent, for summaries (a suite's with its
// families) and odd values.
func TestEncodeIndented(t *testing.T) {
	tr, err := tracefile.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	suite := suiteSummary(t)
	fams, unsized, ok := suiteFamilies(suite, prioritize.Options{})
	if !ok || len(fams) != 3 {
		t.Fatalf("%d families of the suite, %v", len(fams), ok)
	}
	for _, v := range []any{
		summaryJSON{Summary: s, Families: []*prioritize.Family{}},
		summaryJSON{Summary: suite, Families: fams, Unsized: unsized},
		&summaryJSON{Summary: s},
		summaryJSON{},
		oddJSON{Inner: &oddInner{A: 1}, Ptr: &ptrMarshal{}, Val: ptrMarshal{}, List: []ptrMarshal{{}}, Text: oddText{}, Any: []oddInner{{A: 2}}},
		&oddJSON{Nums: [2]int{1, 2}, M: map[string][]int{"k": {1}}, Empty: []oddInner{}},
		[]*oddJSON{nil, {Str: 3}},
		dupJSON{A: 1, oddInner: oddInner{A: 2}},
		struct {
			X int `json:"x,string"`
			Y int `json:"y y"`
			z int
		}{X: 1, Y: 2},
		[]any{}, map[string]any{}, 3, "x", nil,
		map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{1, []any{}, map[string]any{"d": "{[,:]}\"\\"}}, "<&>": "\u2028\xff"},
	} {
		var b bytes.Buffer
		if err := encodeIndented(&b, v); err != nil {
			t.Fatal(err)
		}
		if want := indented(t, v); b.String() != want {
			t.Errorf("encodeIndented:\n%s\nwant:\n%s", b.String(), want)
		}
	}
}

// suiteSummary is the summary of a synthetic suite of three table
// tests of 12 sizes and a test without subtests.
func suiteSummary(t *testing.T) *prioritize.Summary {
	s := testtrace.NewSynth("suite.test")
	first := s.Getters(4, false)
	for tt := 0; tt < 3; tt++ {
		for n := 1; n <= 12; n++ {
			s.Mark("Test"+strconv.Itoa(tt)+"/n="+strconv.Itoa(n), 10)
			for k := 0; k < n*(tt+1); k++ {
				stack := []testtrace.Frame{{Func: "p.T.M" + strconv.Itoa(k%4), File: "/src/p/t.go", Line: k%4 + 1},
					{Func: "p.Test" + strconv.Itoa(tt), File: "/src/p/p_test.go", Line: tt + 1}}
				s.Event(first+uint32(k%4), stack, "<v"+strconv.Itoa(k%3)+">", 10)
			}
		}
	}
	s.Mark("TestPlain", 10)
	s.Event(first, []testtrace.Frame{{Func: "p.T.M0", File: "/src/p/t.go", Line: 1}}, "x", 10)
	path := filepath.Join(t.TempDir(), "suite.suncat")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// oddJSON has what encoding/json does by its own rules: an embedded
// pointer (nil or not), omitempty, pointer and value marshalers reached
// addressably or not, text marshalers, arrays, maps, interfaces.
type oddJSON struct {
	*oddInner
	Inner *oddInner   `json:"inner,omitempty"`
	Ptr   *ptrMarshal `json:"ptr"`
	Val   ptrMarshal  `json:"val"`
	List  []ptrMarshal
	Text  oddText `json:"text"`
	Nums  [2]int  `json:"nums"`
	M     map[string][]int
	Any   any        `json:"any,omitempty"`
	Empty []oddInner `json:"empty,omitempty"`
	Str   int        `json:"-"`
	skip  int
}

type oddInner struct {
	A int `json:"a"`
	B string
}

type ptrMarshal struct{ N int }

func (p *ptrMarshal) MarshalJSON() ([]byte, error) { return []byte(`"pointer method"`), nil }

type oddText struct{}

func (oddText) MarshalText() ([]byte, error) { return []byte("<text>"), nil }

// dupJSON has two fields named a: encoding/json keeps the shallower.
type dupJSON struct {
	A int `json:"a"`
	oddInner
}

// FuzzIndentCompact: any JSON value, compacted, is indented as
// json.Indent indents it.
func FuzzIndentCompact(f *testing.F) {
	f.Add(`{"a":[1,2,{"b":[]}],"c":{},"d":"x\"y\\"}`)
	f.Add(`[[],[[]],{"":{"":[]}}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		if json.Unmarshal([]byte(in), &v) != nil {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(in)); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		indentCompact(bw, compact.Bytes())
		bw.Flush()
		if got.String() != want.String() {
			t.Fatalf("%q:\n%s\nwant:\n%s", in, got.String(), want.String())
		}
	})
}
