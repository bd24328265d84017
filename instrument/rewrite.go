package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// rtName is the name under which rewritten files import the runtime.
const rtName = "__suncat"

// frameName is the name of the frame cache that the rewrite declares at
// the start of each function body that reads fields (Site.Frame): like
// rtName, no Go program declares it. A function literal inside declares
// its own, which hides its enclosing function's.
const frameName = "__suncatF"

// Rewrite returns src, the file at filename, with every returned string of
// the given getters (declared in this file) passed through the runtime:
// `return s.name` becomes `return __suncat.String(7, s.name)`. The runtime
// is imported on the package clause's line. No line is added or removed.
func Rewrite(filename string, src []byte, getters []Getter, rtImport string) ([]byte, error) {
	return RewriteEvents(filename, src, getters, nil, rtImport)
}

// RewriteEvents is Rewrite that also wraps the read and call sites of
// the file (events.go): the expression at a site becomes
// __suncat.Func(ID, expr Extra). With neither getters nor sites, it only
// imports the runtime (for its side effects: the table, the hooks).
func RewriteEvents(filename string, src []byte, getters []Getter, sites []Site, rtImport string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	byOffset := map[int]Getter{}
	for _, g := range getters {
		byOffset[g.Pos.Offset] = g
	}
	buf := newEditBuffer(src)
	done := 0
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		g, ok := byOffset[off(fd.Pos())]
		if !ok {
			continue
		}
		done++
		if err := rewriteFunc(buf, src, off, fd, g, aliasAt(f, off)); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", filename, g.Name(), err)
		}
	}
	if done != len(getters) {
		return nil, fmt.Errorf("%s: found %d of %d getters (file changed since the analysis?)", filename, done, len(getters))
	}
	if err := declareFrames(buf, src, sites); err != nil {
		return nil, fmt.Errorf("%s: %v", filename, err)
	}
	ends := deferEnd(buf, f, off)
	if ends {
		endExits(buf, f, off)
	}
	if err := wrapSites(buf, src, sites); err != nil {
		return nil, fmt.Errorf("%s: %v", filename, err)
	}
	if len(getters) == 0 && len(sites) == 0 && !ends {
		buf.insert(off(f.Name.End()), fmt.Sprintf("; import _ %q", rtImport))
	} else {
		buf.insert(off(f.Name.End()), fmt.Sprintf("; import %s %q", rtName, rtImport))
	}
	out := buf.bytes()
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		return nil, fmt.Errorf("%s: rewrite changed the line count from %d to %d", filename, a, b)
	}
	return out, nil
}

func rewriteFunc(buf *editBuffer, src []byte, off func(token.Pos) int, fd *ast.FuncDecl, g Getter, aliases int) error {
	// The result's type as written, for named string types.
	var names []string
	var resultType string
	i := 0
	for _, field := range fd.Type.Results.List {
		n := len(field.Names)
		if n == 0 {
			n = 1
		}
		for k := 0; k < n; k++ {
			if i == g.ResultIndex {
				resultType = string(src[off(field.Type.Pos()):off(field.Type.End())])
			}
			if len(field.Names) > 0 {
				names = append(names, field.Names[k].Name)
			}
			i++
		}
	}
	conv := "string"
	if resultType != "string" && (shadowed(fd, leadingIdent(resultType)) || shadowed(fd, "string")) {
		// kind := n.k; return kind, in a function of result kind.Kind (or
		// a variable named string): the types cannot be named inside; file
		// scope aliases, after the imports, can. Not a type of the
		// receiver's type parameters, which file scope lacks: such a
		// getter is left as it is.
		if strings.Contains(resultType, "[") {
			return nil
		}
		alias, str := fmt.Sprintf("__suncatR%d", g.ID), fmt.Sprintf("__suncatS%d", g.ID)
		buf.insertLast(aliases, fmt.Sprintf("; type %s = %s; type %s = string", alias, resultType, str))
		resultType, conv = alias, str
	}
	wrap := func(expr string) string {
		call := fmt.Sprintf("%s.String(%d, %s)", rtName, g.ID, expr)
		if resultType == "string" {
			return call
		}
		return fmt.Sprintf("(%s)(%s.String(%d, %s(%s)))", resultType, rtName, g.ID, conv, expr)
	}
	var err error
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are not the getter's
		case *ast.ReturnStmt:
			switch len(n.Results) {
			case g.NumResults:
				e := n.Results[g.ResultIndex]
				head := wrap("\x00")
				k := strings.IndexByte(head, 0)
				start := off(e.Pos())
				if c := src[start-1]; c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
					head = " " + head // return"x" is valid Go; return__suncat is not
					k++
				}
				// The wrap encloses the read sites of e (wrapSites, queued
				// later): its head goes first where one starts with e,
				// its tail last where one ends with it (return *x.p).
				buf.insert(start, head[:k])
				buf.insertLast(off(e.End()), head[k+1:])
			case 0:
				if len(names) != g.NumResults || names[g.ResultIndex] == "_" {
					err = fmt.Errorf("bare return without a usable named result")
					return false
				}
				parts := append([]string(nil), names...)
				parts[g.ResultIndex] = wrap(parts[g.ResultIndex])
				buf.insert(off(n.Return+token.Pos(len("return"))), " "+strings.Join(parts, ", "))
			default:
				err = fmt.Errorf("return with %d values for %d results", len(n.Results), g.NumResults)
			}
		}
		return true
	})
	return err
}

// endExits queues, in the file that declares func main, the wrap of
// each os.Exit call's code in the runtime's ExitCode, which notes the
// end of main before the program leaves through os.Exit (a CLI's
// os.Exit(run()) returns from no main). The wrap encloses the read
// sites of the argument: its head goes first at its offset (queued
// before wrapSites), its tail last.
func endExits(buf *editBuffer, f *ast.File, off func(token.Pos) int) {
	osName := importedAs(f, "os")
	if osName == "" {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 || c.Ellipsis.IsValid() {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName && sel.Sel.Name == "Exit" {
			buf.insert(off(c.Args[0].Pos()), rtName+".ExitCode(")
			buf.insertLast(off(c.Args[0].End()), ")")
		}
		return true
	})
}

// deferEnd queues, in the file of package main that declares func
// main, a deferred call of the runtime's End at the start of main's body
// (after its frame cache, if any): the trace notes when main returned.
// It reports whether it did.
func deferEnd(buf *editBuffer, f *ast.File, off func(token.Pos) int) bool {
	if f.Name.Name != "main" {
		return false
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil && fd.Type.TypeParams == nil {
			buf.insert(off(fd.Body.Lbrace)+1, fmt.Sprintf("defer %s.End(); ", rtName))
			return true
		}
	}
	return false
}

// declareFrames queues the declarations of the frame caches of the
// sites' functions (Site.Frame), each once, before any other edit at the
// same offset (a read that starts the body). A declaration first in its
// block is never jumped over by a goto, and the reads after it use it.
func declareFrames(buf *editBuffer, src []byte, sites []Site) error {
	var at []int
	seen := map[int]bool{}
	for _, s := range sites {
		if s.Frame > len(src) || s.Frame > 0 && src[s.Frame-1] != '{' {
			return fmt.Errorf("site at %d: no body starts before %d (file changed since the analysis?)", s.Start, s.Frame)
		}
		if s.Frame > 0 && !seen[s.Frame] {
			seen[s.Frame] = true
			at = append(at, s.Frame)
		}
	}
	sort.Ints(at)
	for _, off := range at {
		buf.insert(off, fmt.Sprintf("var %s %s.FrameCache; ", frameName, rtName))
	}
	return nil
}

// wrapSites queues the edits of the sites: the statements of their own
// first (a loop's turn, before a read that starts the statement after
// it), then the heads outermost first at one offset, the tails
// innermost first.
func wrapSites(buf *editBuffer, src []byte, sites []Site) error {
	var ss []Site
	for _, s := range sites {
		if s.Stmt {
			if s.Start < 1 || s.Start != s.End || s.Start > len(src) || s.Frame == 0 {
				return fmt.Errorf("statement site at %d out of range (file changed since the analysis?)", s.Start)
			}
			buf.insert(s.Start, fmt.Sprintf("%s.%sF(&%s, %d, %d, %s); ", rtName, s.Func, frameName, s.Slot, s.ID, s.Extra))
			continue
		}
		if s.Start < 0 || s.End > len(src) || s.Start >= s.End {
			return fmt.Errorf("site [%d,%d) out of range (file changed since the analysis?)", s.Start, s.End)
		}
		ss = append(ss, s)
	}
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].Start != ss[j].Start {
			return ss[i].Start < ss[j].Start
		}
		return ss[i].End > ss[j].End
	})
	for _, s := range ss {
		head := fmt.Sprintf("%s.%s(%d, ", rtName, s.Func, s.ID)
		if s.Frame > 0 {
			head = fmt.Sprintf("%s.%sF(&%s, %d, %d, ", rtName, s.Func, frameName, s.Slot, s.ID)
		}
		if c := src[s.Start-1+boolInt(s.Start == 0)]; s.Start > 0 && (c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			head = " " + head
		}
		buf.insert(s.Start, head)
	}
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].End != ss[j].End {
			return ss[i].End < ss[j].End
		}
		return ss[i].Start > ss[j].Start
	})
	for _, s := range ss {
		buf.insert(s.End, s.Extra+")")
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leadingIdent returns the identifier a type as written starts with:
// the package of kind.Kind, the type of Name.
func leadingIdent(typ string) string {
	if i := strings.IndexAny(typ, ".[ "); i >= 0 {
		return typ[:i]
	}
	return typ
}

// shadowed reports whether fd declares name in its receiver,
// parameters, results or body (a variable, constant or type, a function
// literal's parameter), where it hides the package or type of that name.
func shadowed(fd *ast.FuncDecl, name string) bool {
	found := false
	declares := func(ids ...*ast.Ident) {
		for _, id := range ids {
			found = found || id != nil && id.Name == name
		}
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			declares(n.Names...)
		case *ast.ValueSpec:
			declares(n.Names...)
		case *ast.TypeSpec:
			declares(n.Name)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					id, _ := l.(*ast.Ident)
					declares(id)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				k, _ := n.Key.(*ast.Ident)
				v, _ := n.Value.(*ast.Ident)
				declares(k, v)
			}
		}
		return !found
	})
	return found
}

// aliasAt returns the offset where declarations of file scope may go
// on an existing line: after the last import declaration, else after the
// package clause (after the runtime's import the rewrite puts there).
func aliasAt(f *ast.File, off func(token.Pos) int) int {
	at := off(f.Name.End())
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			at = off(g.End())
		}
	}
	return at
}
