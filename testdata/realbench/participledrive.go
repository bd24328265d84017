//go:build ignore

// Command participledrive parses one file of a small statement language
// with a grammar built by github.com/alecthomas/participle/v2 and prints
// what it parsed (doc/cases/participle-reads.md).
//
//	participledrive FILE
//
// The language has assignments and expression statements; a term is a
// number, a name, a call (with optional type arguments, Go-generics
// style: f[int, T[U]](x)), an index a[i], or a parenthesised expression.
// A call and an index both start `name [`, so the parser is built with
// participle.UseLookahead(participle.MaxLookahead): the call is tried
// first and, on an index, backs off once it reaches the token after the
// brackets.
//
// It needs participle, so it builds in a module of its own:
//
//	mkdir drive && cp participledrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init participledrive
//	go get github.com/alecthomas/participle/v2@v2.1.4 && go build
package main

import (
	"fmt"
	"os"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

type Program struct {
	Stmts []*Stmt `@@*`
}

type Stmt struct {
	Assign *Assign `  @@`
	Expr   *Expr   `| @@ ";"`
}

type Assign struct {
	Name  string `@Ident "="`
	Value *Expr  `@@ ";"`
}

type Expr struct {
	Left *Term     `@@`
	Ops  []*OpTerm `@@*`
}

type OpTerm struct {
	Op   string `@("+" | "-" | "*" | "/")`
	Term *Term  `@@`
}

type Term struct {
	Number *float64 `  @Number`
	Call   *Call    `| @@`
	Index  *Index   `| @@`
	Name   string   `| @Ident`
	Sub    *Expr    `| "(" @@ ")"`
}

// Call is f(x, y) or, with type arguments, f[int, T[U]](x).
type Call struct {
	Func     string  `@Ident`
	TypeArgs []*Type `("[" @@ ("," @@)* "]")?`
	Args     []*Expr `"(" (@@ ("," @@)*)? ")"`
}

type Type struct {
	Name string  `@Ident`
	Args []*Type `("[" @@ ("," @@)* "]")?`
}

type Index struct {
	Name  string `@Ident`
	Index *Expr  `"[" @@ "]"`
}

var lex = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Ident", Pattern: `[a-zA-Z_][a-zA-Z0-9_]*`},
	{Name: "Number", Pattern: `[0-9]+(\.[0-9]+)?`},
	{Name: "Punct", Pattern: `[-+*/=;,()\[\]]`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
})

var parser = participle.MustBuild[Program](
	participle.Lexer(lex),
	participle.Elide("Whitespace"),
	participle.UseLookahead(participle.MaxLookahead),
)

// depth is the deepest nesting of indexes and calls in e.
func depth(e *Expr) int {
	if e == nil {
		return 0
	}
	d := termDepth(e.Left)
	for _, o := range e.Ops {
		d = max(d, termDepth(o.Term))
	}
	return d
}

func termDepth(t *Term) int {
	switch {
	case t.Index != nil:
		return 1 + depth(t.Index.Index)
	case t.Call != nil:
		d := 0
		for _, a := range t.Call.Args {
			d = max(d, depth(a))
		}
		return 1 + d
	case t.Sub != nil:
		return depth(t.Sub)
	}
	return 0
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: participledrive FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	prog, err := parser.ParseBytes(os.Args[1], src)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	terms, deepest := 0, 0
	for _, s := range prog.Stmts {
		e := s.Expr
		if s.Assign != nil {
			e = s.Assign.Value
		}
		terms += 1 + len(e.Ops)
		deepest = max(deepest, depth(e))
	}
	fmt.Printf("in %d bytes, %d statements, %d terms, depth %d\n", len(src), len(prog.Stmts), terms, deepest)
}
