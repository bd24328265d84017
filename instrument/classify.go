package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// classify decides whether fn's result idx is, on every return path, the
// value of a struct field or a constant, with at least one field. It
// returns the fields (joined with ", ") and a reason either way.
func classify(fn *ssa.Function, idx int) (field, why string, ok bool) {
	if fn.Blocks == nil {
		return "", "no body", false
	}
	c := &classifier{visited: map[ssa.Value]bool{}}
	returns := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ret, isRet := instr.(*ssa.Return)
			if !isRet || idx >= len(ret.Results) {
				continue
			}
			returns++
			if reason := c.source(ret.Results[idx]); reason != "" {
				return "", reason, false
			}
		}
	}
	if returns == 0 {
		return "", "never returns", false
	}
	if len(c.fields) == 0 {
		return "", "returns only constants", false
	}
	why = "returns field " + strings.Join(c.fields, ", ")
	if c.consts {
		why += " or a constant"
	}
	return strings.Join(c.fields, ", "), why, true
}

type classifier struct {
	visited map[ssa.Value]bool
	fields  []string
	consts  bool
}

func (c *classifier) addField(f string) {
	for _, x := range c.fields {
		if x == f {
			return
		}
	}
	c.fields = append(c.fields, f)
}

// source returns "" if v is a field or a constant, else why it is not.
func (c *classifier) source(v ssa.Value) string {
	if c.visited[v] {
		return ""
	}
	c.visited[v] = true
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || v.Value.Kind() == constant.String {
			c.consts = true
			return ""
		}
		return "returns a non-string constant"
	case *ssa.Field:
		c.addField(fieldPath(v))
		return ""
	case *ssa.UnOp:
		return c.load(v)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if r := c.source(e); r != "" {
				return r
			}
		}
		return ""
	case *ssa.ChangeType:
		return c.source(v.X)
	case *ssa.Convert:
		if b, ok := v.X.Type().Underlying().(*types.Basic); ok && b.Kind() == types.String {
			return c.source(v.X)
		}
		return "returns a conversion from " + v.X.Type().String()
	case *ssa.BinOp:
		if v.Op == token.ADD {
			return "returns a concatenation"
		}
		return "returns the result of " + v.Op.String()
	case *ssa.Lookup:
		return "returns a map lookup"
	case *ssa.Index:
		return "returns an element of a slice or array"
	case *ssa.Extract:
		return extracted(v)
	case *ssa.Call:
		return "returns the result of a call to " + callee(v)
	case *ssa.Parameter:
		return "returns parameter " + v.Name()
	case *ssa.Slice:
		return "returns a substring"
	case *ssa.TypeAssert:
		return "returns a type assertion"
	}
	return fmt.Sprintf("returns a computed value (%T)", v)
}

// load is source for a unary operation: a load through a pointer (*p)
// is a field when p is a field's address (or, for proto2, the field holds
// the pointer), and follows a local variable through alloc.
func (c *classifier) load(v *ssa.UnOp) string {
	if v.Op != token.MUL {
		return "returns the result of " + v.Op.String()
	}
	switch x := v.X.(type) {
	case *ssa.FieldAddr:
		c.addField(fieldPath(x))
		return ""
	case *ssa.UnOp:
		// proto2: *x.Name, a *string field dereferenced.
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			c.addField("*" + fieldPath(fa))
			return ""
		}
	case *ssa.Alloc:
		return c.alloc(x)
	case *ssa.Global:
		return "returns package variable " + x.Name()
	case *ssa.IndexAddr:
		return "returns an element of a slice or array"
	}
	return "returns a value loaded through a pointer that is not a field"
}

// extracted says where a result extracted from a tuple comes from.
func extracted(v *ssa.Extract) string {
	if _, ok := v.Tuple.(*ssa.Lookup); ok {
		return "returns a map lookup"
	}
	if call, ok := v.Tuple.(*ssa.Call); ok {
		return "returns the result of a call to " + callee(call)
	}
	if _, ok := v.Tuple.(*ssa.TypeAssert); ok {
		return "returns a type assertion"
	}
	return "returns a value extracted from a tuple"
}

// alloc handles a result that lives in memory: a named result or a local
// variable that escapes. Every store into it must be a field or a
// constant, and no closure may capture it (a deferred closure could change
// the result after the return statement).
func (c *classifier) alloc(a *ssa.Alloc) string {
	refs := a.Referrers()
	if refs == nil {
		return "returns an unknown variable"
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == a {
				if reason := c.source(r.Val); reason != "" {
					return reason
				}
			} else {
				return "the result's address is stored elsewhere"
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			// A closure that only reads the variable (a deferred log
			// line) cannot change what is returned.
			if closureMayStore(r, a, 0) {
				if deferred(r) {
					return "a deferred closure may change the result"
				}
				return "a closure may change the returned variable"
			}
		case *ssa.Call, *ssa.Defer, *ssa.Go:
			return "the result's address is passed to " + callName(r.(ssa.CallInstruction))
		default:
			return fmt.Sprintf("the result variable is used by %T", r)
		}
	}
	return ""
}

// closureMayStore reports whether the closure mc may store into the
// variable v that it captures: whether its free variable for v (or that
// of a closure nested in it) is used for anything but loads.
func closureMayStore(mc *ssa.MakeClosure, v ssa.Value, depth int) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth > 8 {
		return true
	}
	for i, b := range mc.Bindings {
		if b != v {
			continue
		}
		if i >= len(fn.FreeVars) {
			return true
		}
		fv := fn.FreeVars[i]
		refs := fv.Referrers()
		if refs == nil {
			return true
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return true
				}
			case *ssa.DebugRef:
			case *ssa.MakeClosure:
				if closureMayStore(r, fv, depth+1) {
					return true
				}
			default:
				return true // a store, or the address passed on
			}
		}
	}
	return false
}

// deferred reports whether the closure is called by a defer statement.
func deferred(mc *ssa.MakeClosure) bool {
	if refs := mc.Referrers(); refs != nil {
		for _, r := range *refs {
			if d, ok := r.(*ssa.Defer); ok && d.Call.Value == mc {
				return true
			}
		}
	}
	return false
}

// fieldPath names the field read by v and the fields it was reached
// through: "name", "stop.name".
func fieldPath(v ssa.Value) string {
	var parts []string
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			parts = append(parts, fieldName(x.X.Type(), x.Field))
			v = x.X
			continue
		case *ssa.Field:
			parts = append(parts, fieldName(x.X.Type(), x.Field))
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if _, ok := x.X.(*ssa.FieldAddr); ok {
					v = x.X
					continue
				}
			}
		}
		break
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return fmt.Sprintf("field%d", i)
}

func callee(call *ssa.Call) string { return callName(call) }

// callName names the function a call calls as the source does:
// "strings.ToUpper", "Name", or for a function value its expression
// ("f.format", "pick()"), not an SSA temporary.
func callName(ci ssa.CallInstruction) string {
	c := ci.Common()
	if f := c.StaticCallee(); f != nil {
		if f.Pkg != nil {
			return f.Pkg.Pkg.Name() + "." + f.Name()
		}
		return f.Name()
	}
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if s := calledExpr(ci.Parent(), ci.Pos()); s != "" {
		return s
	}
	return c.Value.Name()
}

// calledExpr returns the called expression, as written, of the call in
// fn's syntax whose left parenthesis is at lparen; "" if there is none.
func calledExpr(fn *ssa.Function, lparen token.Pos) string {
	if fn == nil || !lparen.IsValid() || fn.Syntax() == nil {
		return ""
	}
	var found string
	ast.Inspect(fn.Syntax(), func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Lparen == lparen {
			found = types.ExprString(c.Fun)
		}
		return found == ""
	})
	return found
}
