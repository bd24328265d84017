package prioritize

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Loops paced by a clock. A background goroutine that wakes on a ticker
// (for { select { case <-t.C: work(); case <-done: return } }) or sleeps
// between turns goes round as often as the run lasts, not as often as
// the input asks: its counts measure the clock. In short runs whose
// goroutines start at staggered times they can even grow faster than
// the run's time, and read as a growth class of their own (a store's
// compactors that wait a random delay, then tick every 50 ms). A site
// whose stack, from its responsible frame outward, passes through such
// a loop is marked Clock: its findings rank after all others, say why,
// and check does not fail on them.
//
// A loop is paced by a clock when its trip count is not the data's (a
// for with no init or post statement, or a range over a clock's
// channel) and it waits on a clock at every turn, in a statement of its
// body's own (clockWait): a receive from a Ticker's or Timer's channel
// (an expression X.C), from time.After or time.Tick, a call of
// time.Sleep, or a select without a default with such a case. Its other
// receives, outside function literals, must be stop signals (from a
// call, ctx.Done(), or from a name such as done, quit or stop): a loop
// that also receives work (case j := <-jobs) is paced by the work, its
// clock a timeout.

// clockLoop returns the line of a loop paced by a clock around line in
// the frame's function (funcName at line of the file at path), the
// innermost; 0 when there is none or the file cannot be read.
func (s *sources) clockLoop(path string, line int, funcName string) int {
	return s.remembered(path, line, funcName, func(p *parsed) map[frameAt]int { return p.clock }, findClockLoop)
}

// findClockLoop is clockLoop's search in a parsed file.
func findClockLoop(f *ast.File, fset *token.FileSet, line int, funcName string) int {
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	within := func(n ast.Node) bool {
		return n != nil && lineOf(n.Pos()) <= line && line <= lineOf(n.End())
	}
	timePkg := importName(f, "time")
	loops := loopsAround(f, fset, line, funcName)
	for i := len(loops) - 1; i >= 0; i-- {
		switch n := loops[i].(type) {
		case *ast.ForStmt:
			if n.Init == nil && n.Post == nil && within(n.Body) && waitsOnClock(n.Body, timePkg) {
				return lineOf(n.Pos())
			}
		case *ast.RangeStmt:
			if within(n.Body) && clockChan(n.X, timePkg) {
				return lineOf(n.Pos())
			}
		}
	}
	return 0
}

// waitsOnClock reports whether a loop's body waits on a clock every
// turn, a statement of its own (not under an if: a queue's poller that
// sleeps only when the queue is empty is paced by the queue), and
// receives nothing but stop signals besides.
func waitsOnClock(body *ast.BlockStmt, timePkg string) bool {
	clock := false
	for _, st := range body.List {
		clock = clock || clockWait(st, timePkg)
	}
	work := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && !clockChan(n.X, timePkg) && !stopChan(n.X) {
				work = true
			}
		}
		return !work
	})
	return clock && !work
}

// clockWait reports whether a statement waits on a clock: time.Sleep,
// a receive from a clock's channel (its value kept or not), or a select
// without a default whose cases receive from a clock and from stop
// signals only.
func clockWait(st ast.Stmt, timePkg string) bool {
	switch st := st.(type) {
	case *ast.ExprStmt:
		switch x := ast.Unparen(st.X).(type) {
		case *ast.CallExpr:
			return isPkgCall(x, timePkg, "Sleep")
		case *ast.UnaryExpr:
			return x.Op == token.ARROW && clockChan(x.X, timePkg)
		}
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			x, ok := ast.Unparen(st.Rhs[0]).(*ast.UnaryExpr)
			return ok && x.Op == token.ARROW && clockChan(x.X, timePkg)
		}
	case *ast.SelectStmt:
		clock := false
		for _, c := range st.Body.List {
			cc := c.(*ast.CommClause)
			if cc.Comm == nil {
				return false // a default: the select does not wait
			}
			clock = clock || clockWait(cc.Comm, timePkg)
		}
		return clock
	}
	return false
}

// clockChan reports whether x is a clock's channel: X.C (a Ticker's or
// a Timer's), time.After(d) or time.Tick(d).
func clockChan(x ast.Expr, timePkg string) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "C"
	case *ast.CallExpr:
		return isPkgCall(x, timePkg, "After") || isPkgCall(x, timePkg, "Tick")
	}
	return false
}

// stopChan reports whether a receive from x is a stop signal: from a
// call (ctx.Done(), lc.HasBeenClosed()) or from a channel whose name
// says so (done, quit, stop, closing, s.exit).
func stopChan(x ast.Expr) bool {
	name := ""
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return true
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	}
	name = strings.ToLower(name)
	for _, w := range []string{"done", "quit", "stop", "clos", "exit", "cancel", "shutdown", "die", "kill", "term"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// isPkgCall reports whether c calls pkg.name (pkg being the file's name
// for an imported package; "" when the file does not import it).
func isPkgCall(c *ast.CallExpr, pkg, name string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || pkg == "" || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// importName returns the name a file gives the package it imports as
// path ("" when it does not import it).
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}

// markClock sets the Clock of each site whose stack, from its
// responsible frame outward, passes through a loop paced by a clock:
// "file.go:LINE" of the innermost such loop. Sites that do not grow are
// marked too: check fits them again on the sub-traces two runs share.
func markClock(f *Findings, src *sources) {
	for _, site := range f.Sites {
		for k := max(site.Responsible, 1); k < len(site.Frames); k++ {
			fr := site.Frames[k]
			if l := src.clockLoop(fr.File, fr.Line, fr.Func); l > 0 {
				site.Clock = filepath.Base(fr.File) + ":" + strconv.Itoa(l)
				break
			}
		}
	}
}
