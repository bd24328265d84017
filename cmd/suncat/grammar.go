package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/suncat-go/suncat/grammar"
)

var grammarCmd = &command{
	name:  "grammar",
	args:  "[-json] [-lossless] [-reference] [file]",
	short: "compress a text trace into the lossy grammar",
	order: 50,
	long: `
Grammar reads a trace in text form (whitespace-separated tokens, "$" between
sub-traces) from file, or standard input when no file is given, and prints
its Full Grammar: "S -> ..." and one line per nonterminal, in the notation of
the SUNCAT paper (a^4|5|6|7: a repeats 4, 5, 6 or 7 times).

With two or more sub-traces it uses Comparison Mode: each sub-trace becomes
one nonterminal, so four repetitions of the same action print as S -> A^4.

Examples:

	echo a b b b a b b b b | suncat grammar
	# S -> A^2
	# A -> a b^3|4

	echo a a b $ a a a b | suncat grammar -json
	suncat grammar -lossless trace.txt   # counts are part of equality
`,
}

func init() {
	grammarCmd.run = runGrammar
	register(grammarCmd)
}

func runGrammar(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(grammarCmd, stderr)
	asJSON := fs.Bool("json", false, "print the grammar as JSON (see the grammar package for the schema)")
	lossless := fs.Bool("lossless", false, "lossless compression: repetition counts take part in equality")
	reference := fs.Bool("reference", false, "use the slow reference engine (same output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("at most one file, got %d arguments", fs.NArg())
	}
	in := io.Reader(os.Stdin)
	name := "standard input"
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, fs.Arg(0)
	}
	tr, err := grammar.ParseText(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	g := grammar.Build(tr, grammar.Options{Lossless: *lossless, Reference: *reference})
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(g)
	}
	_, err = io.WriteString(stdout, g.String())
	return err
}
