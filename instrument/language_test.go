package instrument

import (
	"bytes"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/version"
	"strings"
	"testing"
)

func TestNeedsRaise(t *testing.T) {
	for _, tc := range []struct {
		mod, file string
		want      bool
	}{
		{"", "", true}, // no go line: go1.16
		{"1.13", "", true},
		{"1.18", "", true},  // generics, but interface{} is not comparable yet
		{"1.20", "", false}, // enough
		{"1.22", "", false}, // never touched (loop variables)
		{"1.13", "go1.16", true},
		{"1.13", "go1.21", false}, // the file says enough itself
		{"1.21", "go1.13", false},
	} {
		if got := needsRaise(tc.mod, tc.file); got != tc.want {
			t.Errorf("needsRaise(%q, %q) = %v, want %v", tc.mod, tc.file, got, tc.want)
		}
	}
}

func TestRaiseFile(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"go:build kept", "// c\n//go:build linux || darwin\n\npackage p\n", "// c\n//go:build go1.20 && (linux || darwin)\n\npackage p\n"},
		{"blank line", "// Copyright.\n\n// Package p.\npackage p\n", "// Copyright.\n//go:build go1.20\n// Package p.\npackage p\n"},
		{"last blank line", "// a\n\n// b\n\npackage p\n", "// a\n\n// b\n//go:build go1.20\npackage p\n"},
		{"plus build", "// +build !windows\npackage p\n", "//go:build go1.20\npackage p\n"},
		{"package first, blank next", "package p\n\nimport \"fmt\"\n", "//go:build go1.20\npackage p\nimport \"fmt\"\n"},
		{"package first, code next", "package p; import __suncat \"x\"\nimport \"fmt\"\n", "//go:build go1.20\npackage p; import __suncat \"x\"; import \"fmt\"\n"},
		{"package first with semicolon", "package p;\ntype T int\n", "//go:build go1.20\npackage p; type T int\n"},
		{"package with comment, blank next", "package p // import \"p\"\n\ntype T int\n", "//go:build go1.20\npackage p // import \"p\"\ntype T int\n"},
		{"doc comment, package with comment", "// Package p.\npackage p // import \"p\"\ntype T int\n", "//go:build go1.20\npackage p // import \"p\"\ntype T int\n"},
		{"blank line in a block comment", "/*\n\n*/\npackage p\n\n", "/*\n\n*/\n//go:build go1.20\npackage p\n"},
		{"crlf", "package p\r\n\r\ntype T int\r\n", "//go:build go1.20\npackage p\ntype T int\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := raiseFile("p.go", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			checkRaised(t, []byte(tc.src), got)
		})
	}
	for _, tc := range []struct{ name, src string }{
		{"package with comment, code next", "package p // import \"p\"\ntype T int\n"},
		{"directive only", "//go:debug panicnil=1\npackage p // x\ntype T int\n"},
		{"one line", "package p"},
		{"block comment before package", "/* x */ package p\ntype T int\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := raiseFile("p.go", []byte(tc.src)); err == nil {
				t.Errorf("raised:\n%s\nwant an error", got)
			}
		})
	}
}

// checkRaised checks that out, raiseFile's result for src, has src's line
// count and tokens (but comments and semicolons), and a //go:build line
// that gives it a language of at least sitesGo.
func checkRaised(t *testing.T, src, out []byte) {
	t.Helper()
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		t.Fatalf("line count %d, was %d:\n%s", b, a, out)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", out, parser.ParseComments)
	if err != nil {
		t.Fatalf("does not parse: %v\n%s", err, out)
	}
	if f.GoVersion == "" || version.Compare(f.GoVersion, sitesGo) < 0 {
		t.Errorf("file version %q:\n%s", f.GoVersion, out)
	}
	if a, b := tokens(src), tokens(out); a != b {
		t.Errorf("tokens changed:\n%s\nwere:\n%s", b, a)
	}
}

// tokens lists the tokens of src but comments and semicolons.
func tokens(src []byte) string {
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(tf, src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if tok != token.SEMICOLON {
			b.WriteString(tok.String() + " " + lit + "\n")
		}
	}
}

// FuzzRaiseFile: whatever the file, raiseFile either refuses it or keeps
// its line count and tokens and gives it a go1.20 //go:build line.
func FuzzRaiseFile(f *testing.F) {
	f.Add("package p\n\nfunc F() {}\n")
	f.Add("// +build linux\n\n// Package p.\npackage p // import \"p\"\nvar x = 1\n")
	f.Add("/* a\n\nb */ //go:build ignore\npackage p;\ntype T int\n")
	f.Add("//go:build a && !b\n// +build a,!b\n\npackage p\n")
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments); err != nil {
			return
		}
		out, err := raiseFile("p.go", src)
		if err != nil {
			return
		}
		checkRaised(t, src, out)
	})
}
