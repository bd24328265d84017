package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Events beyond string getters (issue 27): with Options.Reads every read
// of a struct field in the analyzed packages is recorded, and with
// Options.Calls every call of the chosen functions. Both are found in the
// syntax with its types (findSites) and recorded where they happen: the
// rewrite wraps the expression read, or the callee, or the call's first
// string argument, in a call of the runtime that records it and returns
// it unchanged (logrt/events.go). The two built-in sets of -calls, sql
// and http, are recorded inside the standard library instead (stdhook.go),
// so that calls made by dependencies (an ORM, a query builder, an HTTP
// client library) count too.

// Event kinds of a Getter (Getter.Kind).
const (
	KindGetter = ""
	KindRead   = "read"
	KindCall   = "call"
)

// A Site is a place the rewrite edits to record a read or a call: the
// expression at [Start, End) of File becomes Func(ID, expr Extra).
type Site struct {
	ID         uint32
	File       string
	Line       int
	Start, End int    // byte offsets of the expression in the original file
	Func       string // the runtime function: ReadString, ..., Call, CallArg, CallWith
	Extra      string // more arguments after the expression: ", 16", `, "T"`
	// Raise says the file's language must be raised to sitesGo
	// (language.go).
	Raise bool `json:",omitempty"`
	// Frame, for a read inside a function, is the offset just inside
	// the body (after its "{") of the function whose activation the read
	// runs in, where the rewrite declares that activation's frame cache
	// (logrt/frame.go); the read then goes through FuncF, with the
	// cache's address and Slot, the read's index among the function's
	// reads. 0: none (outside functions), Func as it is.
	Frame int    `json:",omitempty"`
	Slot  uint32 `json:",omitempty"`
	// Stmt says the site is a statement of its own, inserted at Start
	// (End is Start): a loop's turn, FuncF(&frame, Slot, ID, Extra)
	// first in its body (ReadBoolF of true: a read of nothing).
	Stmt bool `json:",omitempty"`
	key  eventKey
}

// An eventKey names what a site records: the table entry it shares with
// the other sites of the same field or function.
type eventKey struct {
	Kind     string
	Pkg      string
	Receiver string
	Name     string
	Field    string // the table's Field: read:TYPE, call:SET
}

// CallSpec is what -calls chose: the built-in sets and the patterns.
type CallSpec struct {
	SQL, HTTP bool
	Patterns  *regexp.Regexp // over pkg.(*Recv).Method; nil for none
	text      string
}

// ParseCalls parses the value of -calls: comma-separated built-in set
// names (sql, http) and regexps over pkg.(*Recv).Method.
func ParseCalls(spec string) (CallSpec, error) {
	c := CallSpec{text: spec}
	var res []string
	for _, p := range strings.Split(spec, ",") {
		p = strings.TrimSpace(p)
		switch p {
		case "":
		case "sql":
			c.SQL = true
		case "http":
			c.HTTP = true
		default:
			if _, err := regexp.Compile(p); err != nil {
				return c, fmt.Errorf("%q: %w", p, err)
			}
			res = append(res, "(?:"+p+")")
		}
	}
	if len(res) > 0 {
		c.Patterns = regexp.MustCompile(strings.Join(res, "|"))
	}
	return c, nil
}

// siteFinder finds the read and call sites of one file.
type siteFinder struct {
	fset    *token.FileSet
	tf      *token.File
	info    *types.Info
	pkg     *types.Package
	reads   bool
	calls   *regexp.Regexp
	match   *regexp.Regexp
	skip    *regexp.Regexp
	notRead map[ast.Expr]string // selectors that are written, addressed or only a path, and why
	sites   []Site
	left    []Rejected // reads and calls left out, and why
}

// findSites returns the read and call sites of file.
func findSites(fset *token.FileSet, file *ast.File, info *types.Info, pkg *types.Package, reads, loops bool, calls *regexp.Regexp, match, skip *regexp.Regexp) ([]Site, []Rejected) {
	f := &siteFinder{fset: fset, tf: fset.File(file.Pos()), info: info, pkg: pkg, reads: reads, calls: calls,
		match: match, skip: skip, notRead: map[ast.Expr]string{}}
	if !reads && !loops && calls == nil {
		return nil, nil
	}
	if reads {
		ast.Inspect(file, f.markNotRead)
	}
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if reads {
				f.read(n, parent, stack)
			}
		case *ast.CallExpr:
			if calls != nil {
				f.call(n)
			}
		case *ast.ForStmt:
			if loops {
				f.turn(n, n.Body, stack)
			}
		case *ast.RangeStmt:
			if loops {
				f.turn(n, n.Body, stack)
			}
		}
		return true
	})
	numberSlots(f.sites)
	return f.sites, f.left
}

func (f *siteFinder) off(p token.Pos) int { return f.tf.Offset(p) }

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func (f *siteFinder) typeOf(e ast.Expr) types.Type {
	if tv, ok := f.info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func isArray(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// markNotRead notes the selectors whose value is not read: the left side
// of assignments, ++ and --, operands of &, of slicing an array and of a
// pointer method called on a value, and everything on the path to them.
func (f *siteFinder) markNotRead(n ast.Node) bool {
	if e, ok := n.(ast.Expr); ok && f.constantExpr(e) {
		f.notEvaluated(e, "in a constant expression, which Go does not evaluate")
		return false
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.DEFINE {
			for _, l := range n.Lhs {
				f.addressed(l, "written")
			}
		}
	case *ast.IncDecStmt:
		f.addressed(n.X, "written")
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			f.addressed(n.Key, "written")
			f.addressed(n.Value, "written")
		}
		if f.rangeNotEvaluated(n) {
			f.notEvaluated(n.X, "the range of an array's indexes, which Go does not evaluate")
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			f.addressed(n.X, "its address is taken")
		}
	case *ast.SliceExpr:
		if isArray(f.typeOf(n.X)) {
			f.addressed(n.X, "an array sliced in place")
		}
	case *ast.SelectorExpr:
		if sel, ok := f.info.Selections[n]; ok && sel.Kind() == types.MethodVal {
			if fn, ok := sel.Obj().(*types.Func); ok {
				recv := fn.Type().(*types.Signature).Recv()
				if recv != nil && isPointer(recv.Type()) && !isPointer(f.typeOf(n.X)) {
					f.addressed(n.X, "a pointer method's receiver")
				}
			}
		}
	case *ast.CallExpr:
		fun := unparen(n.Fun)
		if s, ok := fun.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				if pn, ok := f.info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "unsafe" {
					for _, a := range n.Args {
						f.addressed(a, "an argument of unsafe."+s.Sel.Name)
					}
				}
			}
		}
		if id, ok := fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") && len(n.Args) == 1 {
			if _, ok := f.info.Uses[id].(*types.Builtin); ok {
				t := f.typeOf(n.Args[0])
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if isArray(t) {
					f.addressed(n.Args[0], "the length of an array, a constant")
				}
			}
		}
	}
	return true
}

// addressed marks e, and the value path it is part of, as not read.
func (f *siteFinder) addressed(e ast.Expr, why string) {
	if e == nil {
		return
	}
	e = unparen(e)
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if _, seen := f.notRead[x]; !seen {
			f.notRead[x] = why
		}
		if sel, ok := f.info.Selections[x]; ok && sel.Kind() == types.FieldVal && !isPointer(f.typeOf(x.X)) {
			f.addressed(x.X, why)
		}
	case *ast.IndexExpr:
		if isArray(f.typeOf(x.X)) {
			f.addressed(x.X, why)
		}
	}
}

// read records selector e, if it reads a field.
func (f *siteFinder) read(e *ast.SelectorExpr, parent ast.Node, stack []ast.Node) {
	sel, ok := f.info.Selections[e]
	if !ok || sel.Kind() != types.FieldVal {
		return
	}
	v, ok := sel.Obj().(*types.Var)
	if !ok {
		return
	}
	key, ok := f.fieldKey(sel, v)
	if !ok {
		return
	}
	full := key.Pkg + "." + tracefmt.Getter{Receiver: key.Receiver, Method: key.Name}.Name()
	if f.match != nil && !f.match.MatchString(full) || f.skip != nil && f.skip.MatchString(full) {
		return
	}
	pos := f.fset.PositionFor(e.Sel.Pos(), false)
	leave := func(why string) {
		f.left = append(f.left, Rejected{PkgPath: key.Pkg, Receiver: key.Receiver, Method: key.Name, Pos: pos, Why: why})
	}
	if why, ok := f.notRead[e]; ok {
		leave("not a read: " + why)
		return
	}
	t := f.typeOf(e)
	if t == nil {
		return
	}
	if why := f.unwrappable(e, t, parent, stack); why != "" {
		leave(why)
		return
	}
	// A struct or array value on the way to a field or element is a
	// path, not a value read (the outer read is recorded).
	switch p := parent.(type) {
	case *ast.SelectorExpr:
		if p.X == e && !isPointer(t) {
			if ps, ok := f.info.Selections[p]; ok && ps.Kind() == types.FieldVal {
				leave("a path to a field of it")
				return
			}
		}
	case *ast.IndexExpr:
		if p.X == e && isArray(t) {
			leave("an array indexed in place")
			return
		}
	}
	fn, extra := readFunc(t, f.pkg)
	key.Field = tracefmt.ReadPrefix + types.TypeString(t, types.RelativeTo(f.pkg))
	f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(e.Pos()), End: f.off(e.End()), Func: fn, Extra: extra,
		Frame: f.frameOf(stack, e), key: key})
}

// turn adds the turn site of loop, whose body is body (stack: the nodes
// enclosing it, the loop last): a statement first in the body, on the
// line of the body's first statement (on the loop's line when it has
// none or shares that line), so that the event's frame is inside the
// loop as the summary reads it. Its table entry is the loop's own,
// named "loop@FILE:LINE" for the loop's first line.
func (f *siteFinder) turn(loop ast.Stmt, body *ast.BlockStmt, stack []ast.Node) {
	if body == nil {
		return
	}
	at := body.Lbrace + 1
	if len(body.List) > 0 && f.fset.Position(body.List[0].Pos()).Line != f.fset.Position(body.Lbrace).Line {
		at = body.List[0].Pos()
	}
	pos := f.fset.PositionFor(loop.Pos(), false)
	key := eventKey{Kind: KindRead, Pkg: f.pkg.Path(), Name: fmt.Sprintf("loop@%s:%d", filepath.Base(pos.Filename), pos.Line),
		Field: tracefmt.TurnField}
	full := key.Pkg + "." + key.Name
	if f.match != nil && !f.match.MatchString(full) || f.skip != nil && f.skip.MatchString(full) {
		return
	}
	frame := f.frameOf(append(stack, body), posNode(at))
	if frame == 0 {
		return
	}
	f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(at), End: f.off(at), Func: "ReadBool", Extra: "true",
		Frame: frame, Stmt: true, key: key})
}

// posNode is a node that is one position, for frameOf.
type posNode token.Pos

func (p posNode) Pos() token.Pos { return token.Pos(p) }
func (p posNode) End() token.Pos { return token.Pos(p) }

// frameOf returns the offset just inside the body of the function whose
// activation evaluates e (stack: the nodes enclosing it, outermost
// first), where that activation's frame cache is declared (Site.Frame),
// or 0 if e is read outside any function. That is the innermost function
// literal or declaration, or the body of a range-over-func loop (Go
// 1.23), which the compiler turns into a function that the iterator
// calls. The loop's key and value are assigned in that function too, but
// outside its body's block: reads there keep to the plain recorders.
func (f *siteFinder) frameOf(stack []ast.Node, e ast.Node) int {
	in := func(n ast.Node) bool { return n != nil && n.Pos() <= e.Pos() && e.End() <= n.End() }
	for i := len(stack) - 1; i >= 0; i-- {
		var body *ast.BlockStmt
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			body = n.Body
		case *ast.FuncDecl:
			body = n.Body
		case *ast.RangeStmt:
			if !f.rangesOverFunc(n) {
				continue
			}
			if in(n.Key) || in(n.Value) {
				return 0
			}
			if !in(n.Body) {
				continue // the range expression: the enclosing function's
			}
			body = n.Body
		default:
			continue
		}
		if body == nil || !in(body) {
			return 0 // in a function's signature
		}
		return f.off(body.Lbrace) + 1
	}
	return 0
}

// rangesOverFunc reports whether r ranges over a function (an iterator).
func (f *siteFinder) rangesOverFunc(r *ast.RangeStmt) bool {
	t := f.typeOf(r.X)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// numberSlots gives the reads of each function (Site.Frame) their
// indexes among its reads, in order.
func numberSlots(sites []Site) {
	next := map[int]uint32{}
	for i := range sites {
		if fr := sites[i].Frame; fr != 0 {
			sites[i].Slot = next[fr]
			next[fr]++
		}
	}
}

// readFunc returns the runtime function that records a read of a value
// of type t, and its extra arguments.
func readFunc(t types.Type, pkg *types.Package) (string, string) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return "ReadString", ""
		case u.Info()&types.IsBoolean != 0:
			return "ReadBool", ""
		case u.Info()&types.IsUnsigned != 0:
			return "ReadUint", ""
		case u.Info()&types.IsInteger != 0:
			return "ReadInt", ""
		case u.Info()&types.IsFloat != 0:
			return "ReadFloat", ""
		}
	case *types.Slice:
		return "ReadSlice", ""
	case *types.Map:
		return "ReadMap", ""
	case *types.Array:
		return "ReadArray", ", " + strconv.FormatInt(u.Len(), 10)
	}
	if _, ok := t.(*types.TypeParam); ok {
		return "ReadAs", ", " + strconv.Quote(types.TypeString(t, types.RelativeTo(pkg)))
	}
	return "ReadAs", ", " + strconv.Quote(types.TypeString(t, types.RelativeTo(pkg)))
}

// fieldKey names the field of a selection by the type that declares it.
func (f *siteFinder) fieldKey(sel *types.Selection, v *types.Var) (eventKey, bool) {
	t := sel.Recv()
	var owner types.Type = t
	idx := sel.Index()
	for i, k := range idx {
		owner = t
		if p, ok := t.Underlying().(*types.Pointer); ok {
			owner = p.Elem()
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || k >= st.NumFields() {
			return eventKey{}, false
		}
		if i < len(idx)-1 {
			t = st.Field(k).Type()
		}
	}
	key := eventKey{Kind: KindRead, Name: v.Name()}
	if p, ok := owner.(*types.Pointer); ok {
		owner = p.Elem()
	}
	if a, ok := owner.(*types.Alias); ok && a.Obj().Pkg() != nil {
		if _, ok := types.Unalias(a).(*types.Struct); ok {
			// type T = struct{...}, as C-to-Go translators declare
			// every struct (modernc.org/sqlite): named by the alias, so
			// that fields of one name in two structs stay apart.
			key.Receiver, key.Pkg = a.Obj().Name(), a.Obj().Pkg().Path()
			return key, true
		}
	}
	switch o := types.Unalias(owner).(type) {
	case *types.Named:
		key.Receiver = o.Obj().Name()
		if o.Obj().Pkg() != nil {
			key.Pkg = o.Obj().Pkg().Path()
		}
	default:
		key.Receiver = "struct"
		if v.Pkg() != nil {
			key.Pkg = v.Pkg().Path()
		}
	}
	if key.Pkg == "" {
		key.Pkg = f.pkg.Path()
	}
	return key, true
}

// call records call c, if its callee is chosen.
func (f *siteFinder) call(c *ast.CallExpr) {
	fun := unparen(c.Fun)
	var id *ast.Ident
	switch x := fun.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.IndexExpr, *ast.IndexListExpr:
		return // an explicitly instantiated generic function
	default:
		return
	}
	fn, ok := f.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	key := eventKey{Kind: KindCall, Pkg: fn.Pkg().Path(), Name: fn.Name()}
	if r := sig.Recv(); r != nil {
		key.Receiver = recvString(r.Type())
	}
	display := tracefmt.Getter{Receiver: key.Receiver, Method: key.Name}.Name()
	full := key.Pkg + "." + display
	if !f.calls.MatchString(full) && !(fn.Pkg().Name() == "main" && f.calls.MatchString("main."+display)) {
		return // a function of package main matches by its import path or as main.F
	}
	key.Field = tracefmt.CallPrefix + f.calls.String()
	pos := f.fset.PositionFor(c.Lparen, false)
	generic := sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0
	for _, a := range c.Args {
		tv, ok := f.info.Types[a]
		if !ok || tv.Type == nil {
			continue
		}
		b, ok := tv.Type.Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsString == 0 {
			continue
		}
		if tv.Value == nil && b.Kind() != types.UntypedString && !f.argBeforeCall(c, a) {
			f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(a.Pos()), End: f.off(a.End()), Func: "CallArg", key: key})
			return
		}
		if generic {
			break
		}
		v := display
		if tv.Value != nil && tv.Value.Kind() == constant.String {
			v = constant.StringVal(tv.Value)
		}
		f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(fun.Pos()), End: f.off(fun.End()), Func: "Call", Extra: ", " + strconv.Quote(v), key: key})
		return
	}
	if generic {
		if a := f.typedArg(c); a != nil {
			f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(a.Pos()), End: f.off(a.End()), Func: "CallWith", Extra: ", " + strconv.Quote(display), key: key})
			return
		}
		f.left = append(f.left, Rejected{PkgPath: key.Pkg, Receiver: key.Receiver, Method: key.Name, Pos: pos, Why: "a generic function called without a string argument or a typed one to record it at"})
		return
	}
	f.sites = append(f.sites, Site{File: pos.Filename, Line: pos.Line, Start: f.off(fun.Pos()), End: f.off(fun.End()), Func: "Call", Extra: ", " + strconv.Quote(display), key: key})
}

// typedArg returns the first argument of call c that a generic
// function's call can be recorded at (CallWith): one of a type of its
// own, not a constant or an untyped value (wrapped, it would take its
// default type, and the call's inference another), and not a plain
// operand read before a call gc makes first (argBeforeCall); nil if
// none is.
func (f *siteFinder) typedArg(c *ast.CallExpr) ast.Expr {
	for _, a := range c.Args {
		tv, ok := f.info.Types[a]
		if !ok || tv.Type == nil || tv.Value != nil || tv.IsNil() || !tv.IsValue() {
			continue
		}
		if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			continue
		}
		if !f.argBeforeCall(c, a) {
			return a
		}
	}
	return nil
}

// argBeforeCall reports whether wrapping argument a of call c would read
// it before a call that gc makes first: a holds a plain operand (it is
// not a call itself) and a later argument holds a call with side effects
// or a receive (gc reads a call's plain operands after the calls among
// its other operands, as readBeforeCall says of reads). Such a call is
// then recorded with its function's name (Call), as one without a string
// argument is, and its argument is passed as it was.
func (f *siteFinder) argBeforeCall(c *ast.CallExpr, a ast.Expr) bool {
	if _, ok := unparen(a).(*ast.CallExpr); ok {
		return false
	}
	return f.hasCall(c, a.End())
}

// recvString prints a receiver type as getters name it: "*DB", "T",
// "I" for an interface method.
func recvString(t types.Type) string {
	ptr := ""
	if p, ok := t.(*types.Pointer); ok {
		ptr, t = "*", p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return ptr + n.Obj().Name()
	}
	return ptr + types.TypeString(t, func(*types.Package) string { return "" })
}

// numberSites gives the sites' events ids after the getters' (n of
// them), one per field or function, in order of name, and returns their
// table entries.
func numberSites(sites []Site, n int) []Getter {
	keys := map[eventKey]uint32{}
	var order []eventKey
	for _, s := range sites {
		if _, ok := keys[s.key]; !ok {
			keys[s.key] = 0
			order = append(order, s.key)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.Kind != b.Kind {
			return a.Kind > b.Kind // reads, then calls
		}
		if a.Pkg != b.Pkg {
			return a.Pkg < b.Pkg
		}
		if a.Receiver != b.Receiver {
			return a.Receiver < b.Receiver
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Field < b.Field
	})
	var gs []Getter
	first := map[eventKey]Site{}
	for i := len(sites) - 1; i >= 0; i-- {
		first[sites[i].key] = sites[i]
	}
	for i, k := range order {
		id := uint32(n + i + 1)
		keys[k] = id
		s := first[k]
		gs = append(gs, Getter{ID: id, Kind: k.Kind, PkgPath: k.Pkg, Receiver: k.Receiver, Method: k.Name, Field: k.Field,
			Pos: token.Position{Filename: s.File, Line: s.Line}, Why: why(k)})
	}
	for i := range sites {
		sites[i].ID = keys[sites[i].key]
	}
	return gs
}

func why(k eventKey) string {
	if k.Field == tracefmt.TurnField {
		return "a loop's turns"
	}
	if k.Kind == KindRead {
		return "field read (" + strings.TrimPrefix(k.Field, tracefmt.ReadPrefix) + ")"
	}
	return "call matching -calls " + strings.TrimPrefix(k.Field, tracefmt.CallPrefix)
}

// unwrappable says why the read e of type t (parent and stack: the nodes
// around it) must stay as it is (order.go), or "".
func (f *siteFinder) unwrappable(e *ast.SelectorExpr, t types.Type, parent ast.Node, stack []ast.Node) string {
	switch {
	case inNosplit(stack):
		return "in a //go:nosplit function, whose frame has no room for the recorder's"
	case f.readBeforeCall(stack):
		return "read before a call in the same expression, which Go makes first"
	}
	if s, ok := parent.(*ast.SliceExpr); ok && s.X == e {
		if p, ok := t.Underlying().(*types.Pointer); ok && isArray(p.Elem()) {
			// Slicing the result of a generic call whose type is a pointer
			// to an array crashes the compiler (go.dev/issue/71184).
			return "a pointer to an array, sliced: the Go compiler cannot slice one a generic function returns"
		}
	}
	return ""
}
