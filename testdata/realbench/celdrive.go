//go:build ignore

// celdrive EXPRFILE N [REPS]: compile the CEL expression in EXPRFILE
// (cel.NewEnv, env.Compile, env.Program) and evaluate it REPS times
// (default 1) against generated input of size N:
//
//	xs   list(int)       0, 1, ..., N-1
//	k    int             -1 (in no list)
//	m    map(string,int) "k0".."k{N-1}" -> 0..N-1
//	key  string          "k{N/2}"
//	x    int             -1
//	s    string          "ab"
//
// It prints the result. See doc/cases/celgo-reads.md and mkcel.sh.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/google/cel-go/cel"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: celdrive EXPRFILE N [REPS]")
		os.Exit(2)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	reps := 1
	if len(os.Args) > 3 {
		if reps, err = strconv.Atoi(os.Args[3]); err != nil {
			panic(err)
		}
	}
	env, err := cel.NewEnv(
		cel.Variable("xs", cel.ListType(cel.IntType)),
		cel.Variable("k", cel.IntType),
		cel.Variable("m", cel.MapType(cel.StringType, cel.IntType)),
		cel.Variable("key", cel.StringType),
		cel.Variable("x", cel.IntType),
		cel.Variable("s", cel.StringType),
		cel.ParserRecursionLimit(1<<20),
		cel.ParserExpressionSizeLimit(1<<30),
	)
	if err != nil {
		panic(err)
	}
	ast, iss := env.Compile(string(src))
	if iss.Err() != nil {
		panic(iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		panic(err)
	}
	xs := make([]int64, n)
	m := make(map[string]int64, n)
	for i := 0; i < n; i++ {
		xs[i] = int64(i)
		m["k"+strconv.Itoa(i)] = int64(i)
	}
	in := map[string]any{
		"xs": xs, "k": int64(-1), "m": m, "key": "k" + strconv.Itoa(n/2),
		"x": int64(-1), "s": "ab",
	}
	for r := 0; r < reps; r++ {
		out, _, err := prg.Eval(in)
		if err != nil {
			panic(err)
		}
		if r == reps-1 {
			v := fmt.Sprint(out.Value())
			if len(v) > 40 {
				v = v[:40] + "..." + strconv.Itoa(len(v))
			}
			fmt.Println(v)
		}
	}
}
