package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Reads the rewrite must leave as they are, because wrapping them in a
// call would change what the program does or whether it builds. A sweep
// of published modules and hand-written cases found each (the reasons
// below are what suncat getters -v prints).

// notEvaluated marks every selector inside e as not read: Go does not
// evaluate e (a constant expression such as len(p.st.buf) of an array
// reached through a pointer, or the range of an array's indexes), and a
// wrapped read there would add a call, which makes the expression no
// longer constant (a build error in an array length) and dereferences
// what Go never touches (a nil pointer panics).
func (f *siteFinder) notEvaluated(e ast.Expr, why string) {
	ast.Inspect(e, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if _, seen := f.notRead[s]; !seen {
				f.notRead[s] = why
			}
		}
		return true
	})
}

// constantExpr reports whether e is a constant expression (the type
// checker knows its value).
func (f *siteFinder) constantExpr(e ast.Expr) bool {
	tv, ok := f.info.Types[e]
	return ok && tv.Value != nil
}

// rangeNotEvaluated reports whether the range expression of r is not
// evaluated: at most one iteration variable, over an array or a pointer
// to one, with no call or receive in it (the spec's exception: len(x)
// is constant then). A blank second variable counts as none.
func (f *siteFinder) rangeNotEvaluated(r *ast.RangeStmt) bool {
	if r.Value != nil && !isBlank(r.Value) {
		return false
	}
	t := f.typeOf(r.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return isArray(t) && !f.hasCall(r.X, token.NoPos)
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// evalUnit returns the node whose calls gc makes before it reads the
// selector at the end of stack (the nodes enclosing it, outermost
// first): its nearest enclosing call (a plain operand of a call is read
// when the call is made, after the calls among the other operands), the
// operand of && or || it is in (the right one is evaluated after the
// left), or the expression or simple statement it is in.
func evalUnit(stack []ast.Node) ast.Node {
	for i := len(stack) - 2; i >= 0; i-- {
		child := stack[i+1]
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			return n
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				return child
			}
		case *ast.FuncLit:
			return child
		case *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.RangeStmt,
			*ast.CaseClause, *ast.CommClause, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
			return child
		case ast.Stmt, *ast.ValueSpec:
			return n
		}
	}
	return nil
}

// readBeforeCall reports whether gc would read the selector at the end
// of stack after a call that its wrap, a call itself, would come
// before: a call (or receive) after it in its evaluation unit. gc makes
// the calls of a unit first and reads its plain operands after them, so
// start, end := l.pos, l.next() read l.pos after next, and
// append(l.items, l.emit(x)) read l.items after emit's own append; the
// wrapped reads, calls evaluated left to right, came first and changed
// the program's output.
func (f *siteFinder) readBeforeCall(stack []ast.Node) bool {
	e := stack[len(stack)-1]
	unit := evalUnit(stack)
	return unit != nil && f.hasCall(unit, e.End())
}

// hasCall reports whether n holds a call with side effects (not a
// conversion or a pure builtin) or a receive that starts at or after
// after (token.NoPos: anywhere), outside function literals' bodies.
func (f *siteFinder) hasCall(n ast.Node, after token.Pos) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found {
			return false
		}
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = m.Pos() >= after && f.sideEffects(m)
		case *ast.UnaryExpr:
			found = m.Op == token.ARROW && m.Pos() >= after
		}
		return !found
	})
	return found
}

// pureBuiltins are the builtins that neither write memory nor run code
// (append writes into its slice's array: a, x := s.a, append(s.a[:0], 7)
// read the 7 plainly).
var pureBuiltins = map[string]bool{"len": true, "cap": true, "make": true, "new": true,
	"min": true, "max": true, "complex": true, "real": true, "imag": true}

// pureStd are standard packages whose functions (not methods) write no
// memory they are not given and call no code of the program's but the
// functions passed to them; given neither memory (a slice, a pointer, a
// map) nor a function, they write nothing the program reads.
var pureStd = map[string]bool{"unsafe": true, "strconv": true, "strings": true, "bytes": true, "math": true,
	"math/bits": true, "unicode": true, "unicode/utf8": true, "unicode/utf16": true, "path": true}

// sideEffects reports whether call c may write memory the program reads
// or run its code: not a conversion, nor a pure builtin, nor a function
// of pureStd given no function.
func (f *siteFinder) sideEffects(c *ast.CallExpr) bool {
	if tv, ok := f.info.Types[c.Fun]; ok && tv.IsType() {
		return false
	}
	switch fun := unparen(c.Fun).(type) {
	case *ast.Ident:
		if b, ok := f.info.Uses[fun].(*types.Builtin); ok {
			return !pureBuiltins[b.Name()]
		}
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok {
			if pn, ok := f.info.Uses[id].(*types.PkgName); ok && pureStd[pn.Imported().Path()] {
				return f.passesMemory(c)
			}
		}
	}
	return true
}

// passesMemory reports whether an argument of c is a function or
// memory it could write (strconv.AppendInt(s.b[:0], ...),
// utf8.EncodeRune(s.c[:], r)): anything but a string, a number or a
// boolean.
func (f *siteFinder) passesMemory(c *ast.CallExpr) bool {
	for _, a := range c.Args {
		t := f.typeOf(a)
		if t == nil {
			return true
		}
		if _, ok := t.Underlying().(*types.Basic); !ok {
			return true
		}
	}
	return false
}

// inNosplit reports whether the innermost function declaration around
// the end of stack is marked //go:nosplit (a function literal in it is a
// function of its own, without the mark): its frame must fit the
// linker's limit for nosplit chains, and a frame cache and a call to the
// recorder took one of 512 bytes of locals past it.
func inNosplit(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.FuncDecl:
			return hasDirective(n.Doc, "//go:nosplit")
		}
	}
	return false
}

// hasDirective reports whether the comment group holds the directive.
func hasDirective(doc *ast.CommentGroup, directive string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == directive || strings.HasPrefix(c.Text, directive+" ") {
			return true
		}
	}
	return false
}
