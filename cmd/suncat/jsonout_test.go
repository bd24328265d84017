package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

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
// with two spaces of indent, for a summary and odd values.
func TestEncodeIndented(t *testing.T) {
	tr, err := tracefile.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{
		summaryJSON{Summary: s, Families: []*prioritize.Family{}},
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
