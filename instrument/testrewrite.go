package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hookName is the name under which rewritten test files import the test
// hooks (logrt/testhook).
const hookName = "__suncattest"

// RewriteTest returns src, a _test.go file, with its tests labelled for
// the trace: every Test, Benchmark and Fuzz function calls the hooks' Start
// first, every Example function and TestMain the hooks' Label, the
// function literal given to Fuzz (which runs each input as a subtest)
// calls Start too, and calls of Run, Parallel and Cleanup on a parameter
// of type *testing.T (Run and Cleanup on *testing.B, Cleanup on
// *testing.F, Run on *testing.M) go through the hooks, which label each
// subtest's events with its name (a cleanup's with its test's, TestMain's
// after m.Run with TestMain). It reports false, and returns src, when the file
// has nothing to label. No line is added or removed.
//
// Parameters are recognized by their declared type, in the file's syntax
// only (no type checking): a *testing.T reached another way (a struct
// field, a helper's result) runs its subtests unlabelled, under the label
// of the test that started them.
func RewriteTest(filename string, src []byte, hookImport string) ([]byte, bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, 0) // with object resolution
	if err != nil {
		return nil, false, err
	}
	r := &testRewriter{src: src, file: fset.File(f.Pos()), testing: importedAs(f, "testing"), buf: newEditBuffer(src)}
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok {
			r.funcDecl(fd)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			r.call(call)
		}
		return true
	})
	if r.edits == 0 {
		return src, false, nil
	}
	r.buf.insert(r.off(f.Name.End()), fmt.Sprintf("; import %s %q", hookName, hookImport))
	out := r.buf.bytes()
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		return nil, false, fmt.Errorf("%s: rewrite changed the line count from %d to %d", filename, a, b)
	}
	return out, true, nil
}

// A testRewriter queues the edits of RewriteTest on one file.
type testRewriter struct {
	src     []byte
	file    *token.File
	testing string // the name package testing is imported under; "" for none usable
	buf     *editBuffer
	edits   int
}

// importedAs returns the name under which f imports the package
// importPath ("testing", "os"), or "" when it does not or imports it as
// _ or . (then its functions cannot be told by name).
func importedAs(f *ast.File, importPath string) string {
	name := ""
	for _, imp := range f.Imports {
		if imp.Path.Value != strconv.Quote(importPath) {
			continue
		}
		name = path.Base(importPath)
		if imp.Name != nil {
			name = imp.Name.Name
		}
	}
	if name == "_" || name == "." {
		return ""
	}
	return name
}

func (r *testRewriter) off(p token.Pos) int { return r.file.Offset(p) }

// ptrTo reports whether e is *testing.<name>.
func (r *testRewriter) ptrTo(e ast.Expr, name string) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && r.testing != "" && id.Name == r.testing && sel.Sel.Name == name
}

// funcDecl labels a top-level function that go test runs: an Example
// function or TestMain calls Label with its name, a Test, Benchmark or
// Fuzz function calls Start with its parameter.
func (r *testRewriter) funcDecl(fd *ast.FuncDecl) {
	if fd.Body == nil || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Type.Results != nil {
		return
	}
	params := fd.Type.Params.List
	switch name := fd.Name.Name; {
	case len(params) == 0 && isTestName(name, "Example"):
		r.label(fd.Body, name)
	case len(params) != 1 || len(params[0].Names) > 1:
	case name == "TestMain" && r.ptrTo(params[0].Type, "M"):
		r.label(fd.Body, name)
	case isTestName(name, "Test") && r.ptrTo(params[0].Type, "T"),
		isTestName(name, "Benchmark") && r.ptrTo(params[0].Type, "B"),
		isTestName(name, "Fuzz") && r.ptrTo(params[0].Type, "F"):
		r.startWith(params, fd.Body)
	}
}

// label makes body begin by calling Label with name.
func (r *testRewriter) label(body *ast.BlockStmt, name string) {
	r.buf.insert(r.off(body.Lbrace)+1, fmt.Sprintf(" %s.Label(%q);", hookName, name))
	r.edits++
}

// startWith makes body begin by calling Start with the first of params,
// naming it if it has no usable name (and the others _, if they have none
// either: names are given to all or none).
func (r *testRewriter) startWith(params []*ast.Field, body *ast.BlockStmt) {
	param := params[0]
	name := "__t"
	switch {
	case len(param.Names) == 0:
		r.buf.insert(r.off(param.Type.Pos()), name+" ")
		for _, p := range params[1:] {
			r.buf.insert(r.off(p.Type.Pos()), "_ ")
		}
	case param.Names[0].Name == "_":
		id := param.Names[0]
		r.buf.replace(r.off(id.Pos()), r.off(id.End()), name)
	default:
		name = param.Names[0].Name
	}
	r.buf.insert(r.off(body.Lbrace)+1, fmt.Sprintf(" %s.Start(%s);", hookName, name))
	r.edits++
}

// call sends a method call on a parameter of a testing type through the
// hooks: f.Fuzz's function literal calls Start, and Run, Parallel and
// Cleanup become calls of the hooks (see hookFor).
func (r *testRewriter) call(call *ast.CallExpr) {
	if call.Ellipsis.IsValid() {
		return
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	recv, ok := sel.X.(*ast.Ident)
	if !ok || recv.Obj == nil || recv.Obj.Kind != ast.Var {
		return
	}
	field, ok := recv.Obj.Decl.(*ast.Field)
	if !ok {
		return
	}
	if sel.Sel.Name == "Fuzz" && len(call.Args) == 1 && r.ptrTo(field.Type, "F") {
		r.fuzzTarget(call.Args[0])
		return
	}
	if hook := r.hookFor(sel.Sel.Name, len(call.Args), field.Type); hook != "" {
		r.toHook(call, recv, hook)
	}
}

// fuzzTarget makes the function given to f.Fuzz(func(t *testing.T, ...)
// {...}) call Start: each input (the seeds under go test) runs as the
// subtest t.
func (r *testRewriter) fuzzTarget(arg ast.Expr) {
	lit, ok := arg.(*ast.FuncLit)
	if !ok {
		return
	}
	ps := lit.Type.Params.List
	if len(ps) == 0 || len(ps[0].Names) > 1 || !r.ptrTo(ps[0].Type, "T") {
		return
	}
	r.startWith(ps, lit.Body)
}

// hookFor returns the hook that replaces the call of method with nargs
// arguments on a receiver of type recvType, or "" for none.
func (r *testRewriter) hookFor(method string, nargs int, recvType ast.Expr) string {
	switch {
	case method == "Run" && nargs == 2 && r.ptrTo(recvType, "T"):
		return "Run"
	case method == "Run" && nargs == 2 && r.ptrTo(recvType, "B"):
		return "RunB"
	case method == "Parallel" && nargs == 0 && r.ptrTo(recvType, "T"):
		return "Parallel"
	case method == "Run" && nargs == 0 && r.ptrTo(recvType, "M"):
		return "MainRun"
	case method == "Cleanup" && nargs == 1 && (r.ptrTo(recvType, "T") || r.ptrTo(recvType, "B") || r.ptrTo(recvType, "F")):
		return "Cleanup"
	}
	return ""
}

// toHook rewrites call, a method call on recv, as a call of hook with
// recv as first argument: t.Run(a, b) -> __suncattest.Run(t, a, b);
// t.Parallel() -> __suncattest.Parallel(t). Line breaks inside the
// replaced text are kept; a comment there is lost with it (it is only a
// copy).
func (r *testRewriter) toHook(call *ast.CallExpr, recv *ast.Ident, hook string) {
	end := r.off(call.Lparen) + 1
	noArgs := hook == "Parallel" || hook == "MainRun"
	if noArgs {
		end = r.off(call.Rparen)
	}
	kept := strings.Repeat("\n", bytes.Count(r.src[r.off(recv.End()):end], []byte("\n")))
	text := fmt.Sprintf("%s.%s(%s", hookName, hook, recv.Name)
	if !noArgs {
		text += ", "
	}
	r.buf.replace(r.off(recv.Pos()), end, text+kept)
	r.edits++
}

// isTestName reports whether name is a test function's name for prefix,
// by the go command's rule: the prefix, then nothing or a character that
// is not a lower-case letter.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}
