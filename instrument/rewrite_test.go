package instrument

import (
	"bytes"
	"go/token"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	src := []byte(`//go:build linux || !linux

// Package m is a test.
package m // trailing comment

type Name string

type S struct{ name string }

func (s *S) Name() string { return s.name }

func (s *S) Typed() Name {
	if s == nil {
		return ""
	}
	return Name(s.name) // keep me
}

func (s *S) Bare() (n string, ok bool) {
	n, ok = s.name, true
	f := func() string { return "inner" }
	_ = f
	return
}
`)
	at := func(decl string) token.Position {
		return token.Position{Filename: "m.go", Offset: bytes.Index(src, []byte(decl))}
	}
	gs := []Getter{
		{ID: 1, Method: "Name", Receiver: "*S", Pos: at("func (s *S) Name"), NumResults: 1},
		{ID: 2, Method: "Typed", Receiver: "*S", Pos: at("func (s *S) Typed"), NumResults: 1},
		{ID: 3, Method: "Bare", Receiver: "*S", Pos: at("func (s *S) Bare"), NumResults: 2},
	}
	out, err := Rewrite("m.go", src, gs, "example.com/m/internal/suncatrt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"//go:build linux || !linux\n",
		`package m; import __suncat "example.com/m/internal/suncatrt" // trailing comment`,
		`return __suncat.String(1, s.name) }`,
		`return (Name)(__suncat.String(2, string(""))`,
		`return (Name)(__suncat.String(2, string(Name(s.name)))) // keep me`,
		`return __suncat.String(3, n), ok` + "\n",
		`return "inner"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Errorf("line count changed")
	}
	// A getter that is not in the file is an error, not a silent skip.
	if _, err := Rewrite("m.go", src, append(gs, Getter{ID: 4, Pos: token.Position{Offset: 3}}), "x"); err == nil {
		t.Errorf("missing getter: no error")
	}
}

func TestEditBufferOverlapPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("no panic on overlapping edits")
		}
	}()
	b := newEditBuffer([]byte("hello world"))
	b.replace(0, 5, "x")
	b.replace(3, 7, "y")
	b.bytes()
}
