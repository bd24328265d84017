package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
	testing := ""
	for _, imp := range f.Imports {
		if imp.Path.Value != `"testing"` {
			continue
		}
		testing = "testing"
		if imp.Name != nil {
			testing = imp.Name.Name
		}
	}
	if testing == "_" || testing == "." {
		testing = "" // only examples can be recognized
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	// ptrTo reports whether e is *testing.<name>.
	ptrTo := func(e ast.Expr, name string) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && testing != "" && id.Name == testing && sel.Sel.Name == name
	}
	buf := newEditBuffer(src)
	edits := 0
	// startWith makes body begin by calling Start with the first of
	// params, naming it if it has no usable name (and the others _, if
	// they have none either: names are given to all or none).
	startWith := func(params []*ast.Field, body *ast.BlockStmt) {
		param := params[0]
		name := "__t"
		switch {
		case len(param.Names) == 0:
			buf.insert(off(param.Type.Pos()), name+" ")
			for _, p := range params[1:] {
				buf.insert(off(p.Type.Pos()), "_ ")
			}
		case param.Names[0].Name == "_":
			id := param.Names[0]
			buf.replace(off(id.Pos()), off(id.End()), name)
		default:
			name = param.Names[0].Name
		}
		buf.insert(off(body.Lbrace)+1, fmt.Sprintf(" %s.Start(%s);", hookName, name))
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Type.Results != nil {
			continue
		}
		params := fd.Type.Params.List
		if len(params) == 0 && isTestName(fd.Name.Name, "Example") {
			buf.insert(off(fd.Body.Lbrace)+1, fmt.Sprintf(" %s.Label(%q);", hookName, fd.Name.Name))
			edits++
			continue
		}
		if len(params) != 1 || len(params[0].Names) > 1 {
			continue
		}
		if fd.Name.Name == "TestMain" && ptrTo(params[0].Type, "M") {
			buf.insert(off(fd.Body.Lbrace)+1, fmt.Sprintf(" %s.Label(%q);", hookName, fd.Name.Name))
			edits++
			continue
		}
		if !(isTestName(fd.Name.Name, "Test") && ptrTo(params[0].Type, "T")) &&
			!(isTestName(fd.Name.Name, "Benchmark") && ptrTo(params[0].Type, "B")) &&
			!(isTestName(fd.Name.Name, "Fuzz") && ptrTo(params[0].Type, "F")) {
			continue
		}
		startWith(params, fd.Body)
		edits++
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		recv, ok := sel.X.(*ast.Ident)
		if !ok || recv.Obj == nil || recv.Obj.Kind != ast.Var {
			return true
		}
		field, ok := recv.Obj.Decl.(*ast.Field)
		if !ok {
			return true
		}
		if sel.Sel.Name == "Fuzz" && len(call.Args) == 1 && ptrTo(field.Type, "F") {
			// f.Fuzz(func(t *testing.T, ...) {...}): each input (the
			// seeds under go test) runs as the subtest t.
			lit, ok := call.Args[0].(*ast.FuncLit)
			if !ok {
				return true
			}
			ps := lit.Type.Params.List
			if len(ps) == 0 || len(ps[0].Names) > 1 || !ptrTo(ps[0].Type, "T") {
				return true
			}
			startWith(ps, lit.Body)
			edits++
			return true
		}
		var hook string
		switch {
		case sel.Sel.Name == "Run" && len(call.Args) == 2 && ptrTo(field.Type, "T"):
			hook = "Run"
		case sel.Sel.Name == "Run" && len(call.Args) == 2 && ptrTo(field.Type, "B"):
			hook = "RunB"
		case sel.Sel.Name == "Parallel" && len(call.Args) == 0 && ptrTo(field.Type, "T"):
			hook = "Parallel"
		case sel.Sel.Name == "Run" && len(call.Args) == 0 && ptrTo(field.Type, "M"):
			hook = "MainRun"
		case sel.Sel.Name == "Cleanup" && len(call.Args) == 1 && (ptrTo(field.Type, "T") || ptrTo(field.Type, "B") || ptrTo(field.Type, "F")):
			hook = "Cleanup"
		default:
			return true
		}
		// t.Run(a, b) -> __suncattest.Run(t, a, b); t.Parallel() ->
		// __suncattest.Parallel(t). Line breaks inside the replaced text
		// are kept; a comment there is lost with it (it is only a copy).
		end := off(call.Lparen) + 1
		noArgs := hook == "Parallel" || hook == "MainRun"
		if noArgs {
			end = off(call.Rparen)
		}
		kept := strings.Repeat("\n", bytes.Count(src[off(recv.End()):end], []byte("\n")))
		text := fmt.Sprintf("%s.%s(%s", hookName, hook, recv.Name)
		if !noArgs {
			text += ", "
		}
		buf.replace(off(recv.Pos()), end, text+kept)
		edits++
		return true
	})
	if edits == 0 {
		return src, false, nil
	}
	buf.insert(off(f.Name.End()), fmt.Sprintf("; import %s %q", hookName, hookImport))
	out := buf.bytes()
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		return nil, false, fmt.Errorf("%s: rewrite changed the line count from %d to %d", filename, a, b)
	}
	return out, true, nil
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
