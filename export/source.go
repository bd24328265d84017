package export

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// A sourceLine is one line of a function's source as the report shows
// it: Mark is "loop" for the lines of the loop that makes the calls
// grow, "event" for the line of the call, "" otherwise; Gutter says the
// same in a character, so it reads without colour.
type sourceLine struct {
	N      int
	Text   string
	Mark   string
	Gutter string
}

// maxSource is the most lines of a function the report shows; a longer
// one is cut to its first line and a window around the loop and the
// call.
const maxSource = 30

// sourceLines returns the lines of the function in src that holds line
// (the responsible frame's call), the lines of the loop that starts at
// loop (0: none) marked "loop" and line marked "event"; nil when src
// does not parse or no function holds line.
func sourceLines(src []byte, line, loop int) []sourceLine {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	from, to := enclosing(fset, f, line)
	if from == 0 {
		return nil
	}
	loopEnd := loopEnd(fset, f, loop, line)
	text := strings.Split(string(src), "\n")
	var out []sourceLine
	if to-from+1 > maxSource {
		head := from
		from, to = window(from, to, line, loop)
		if from > head {
			out = append(out, sourceLine{N: head, Text: text[head-1], Gutter: " "}, sourceLine{Text: "⋮", Mark: "gap", Gutter: " "})
		}
	}
	for n := from; n <= to && n <= len(text); n++ {
		l := sourceLine{N: n, Text: strings.TrimRight(text[n-1], "\r"), Gutter: " "}
		switch {
		case n == line:
			l.Mark, l.Gutter = "event", "▶"
		case loop > 0 && n >= loop && n <= loopEnd:
			l.Mark, l.Gutter = "loop", "│"
		}
		out = append(out, l)
	}
	return out
}

// enclosing returns the first and last line of the innermost function
// (declaration or literal) whose body holds line; 0, 0 when none does.
func enclosing(fset *token.FileSet, f *ast.File, line int) (from, to int) {
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		if n == nil || body == nil {
			return true
		}
		a, b := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
		if a <= line && line <= b {
			from, to = a, b
		}
		return true
	})
	return from, to
}

// loopEnd is the last line of the for statement that starts at line
// loop and holds line call; loop when there is none.
func loopEnd(fset *token.FileSet, f *ast.File, loop, call int) int {
	end := loop
	if loop == 0 {
		return 0
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			a, b := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
			if a == loop && call >= a && call <= b {
				end = b
			}
		}
		return true
	})
	return end
}

// window cuts a long function to maxSource lines around the call, from
// the loop's first line when that fits.
func window(from, to, line, loop int) (int, int) {
	lo := line - maxSource/2
	if loop > 0 && loop < line && line-loop < maxSource-5 {
		lo = loop - 2
	}
	if lo < from {
		lo = from
	}
	hi := lo + maxSource - 1
	if hi > to {
		hi = to
	}
	return lo, hi
}
