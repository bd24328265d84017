package instrument

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The built-in sets of -calls are recorded inside the standard library,
// so that the calls a program's dependencies make count as well as its
// own: an N+1 query made through an ORM or a query builder reaches
// database/sql, a REST client net/http. The build overlays a copy of the
// package's file with one statement added at the start of each chosen
// method, on the line of its opening brace (no line moves), that passes
// the statement text or the URL to a hook variable; the runtime's table
// file sets the hook to logrt.String and the ids of the methods' table
// entries. Nothing else in the package changes, and builds without
// -calls sql or http compile the standard library as it is.

// A stdHook is one method of the standard library whose calls a set
// records.
type stdHook struct {
	set      string // "sql" or "http"
	pkg      string // import path
	file     string // the file, in GOROOT/src/pkg
	anchor   string // the start of the method's first line
	value    string // the expression recorded, in the method's scope
	receiver string
	method   string
}

var stdHooks = []stdHook{
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (db *DB) QueryContext(", "query", "*DB", "QueryContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (db *DB) ExecContext(", "query", "*DB", "ExecContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (tx *Tx) QueryContext(", "query", "*Tx", "QueryContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (tx *Tx) ExecContext(", "query", "*Tx", "ExecContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (c *Conn) QueryContext(", "query", "*Conn", "QueryContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (c *Conn) ExecContext(", "query", "*Conn", "ExecContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (s *Stmt) QueryContext(", "s.query", "*Stmt", "QueryContext"},
	{tracefmt.HookSQL, "database/sql", "sql.go", "func (s *Stmt) ExecContext(", "s.query", "*Stmt", "ExecContext"},
	{tracefmt.HookHTTP, "net/http", "client.go", "func (c *Client) do(", "suncatURL(req)", "*Client", "Do"},
}

// hookEntries returns the table entries of the hooked methods of the
// sets calls chooses, numbered after n.
func hookEntries(calls CallSpec, n uint32) []Getter {
	var gs []Getter
	for _, h := range stdHooks {
		if h.set == tracefmt.HookSQL && !calls.SQL || h.set == tracefmt.HookHTTP && !calls.HTTP {
			continue
		}
		n++
		gs = append(gs, Getter{ID: n, Kind: KindCall, PkgPath: h.pkg, Receiver: h.receiver, Method: h.method,
			Field: tracefmt.CallPrefix + h.set, Why: "-calls " + h.set + ": recorded in " + h.pkg + ", whoever calls it"})
	}
	return gs
}

// hookIDs returns, for each package the analysis hooks, the ids of its
// hooked methods in stdHooks order.
func hookIDs(a *Analysis) map[string][]uint32 {
	ids := map[string][]uint32{}
	for _, h := range stdHooks {
		if !contains(a.Hooks, h.set) {
			continue
		}
		var id uint32
		for _, g := range a.Getters {
			if g.Kind == KindCall && g.PkgPath == h.pkg && g.Receiver == h.receiver && g.Method == h.method && g.Field == tracefmt.CallPrefix+h.set {
				id = g.ID
			}
		}
		ids[h.pkg] = append(ids[h.pkg], id)
	}
	return ids
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// patchStd returns the patched files of the hooked packages (original
// path -> content) and sets the hooked methods' table entries' positions.
func patchStd(a *Analysis, goroot string) (map[string][]byte, error) {
	files := map[string][]byte{}
	k := map[string]int{}
	for _, h := range stdHooks {
		if !contains(a.Hooks, h.set) {
			continue
		}
		path := filepath.Join(goroot, "src", filepath.FromSlash(h.pkg), h.file)
		src, ok := files[path]
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			src = data
		}
		i := bytes.Index(src, []byte("\n"+h.anchor))
		if i < 0 {
			return nil, fmt.Errorf("%s: no %q (a toolchain suncat does not know; -calls %s needs it)", path, h.anchor, h.set)
		}
		j := bytes.IndexByte(src[i+1:], '\n')
		if j < 0 || src[i+j] != '{' {
			return nil, fmt.Errorf("%s: %q does not end its line with {", path, h.anchor)
		}
		at := i + 1 + j
		code := fmt.Sprintf(" if SuncatCall != nil { suncatCall(%d, %s) };", k[h.pkg], h.value)
		k[h.pkg]++
		src = append(src[:at:at], append([]byte(code), src[at:]...)...)
		files[path] = src
		line := bytes.Count(src[:at], []byte("\n")) + 1
		for gi := range a.Getters {
			g := &a.Getters[gi]
			if g.Kind == KindCall && g.PkgPath == h.pkg && g.Receiver == h.receiver && g.Method == h.method {
				g.Pos = stdPos(path, line)
			}
		}
	}
	for path, src := range files {
		pkg := filepath.Base(filepath.Dir(path))
		n := k["database/sql"]
		if pkg == "http" {
			n = k["net/http"]
		}
		more := fmt.Sprintf(`
// SuncatCall and SuncatIDs are set by suncat's runtime (-calls): the
// recorder and the table ids of the hooked methods, in order.
var (
	SuncatCall func(id uint32, v string) string
	SuncatIDs  [%d]uint32
)

func suncatCall(k int, v string) {
	if f := SuncatCall; f != nil && SuncatIDs[k] != 0 {
		f(SuncatIDs[k], v)
	}
}
`, n)
		if pkg == "http" {
			more += `
// suncatURL is the URL of req without its query, fragment and user.
func suncatURL(req *Request) string {
	if req == nil || req.URL == nil {
		return ""
	}
	u := *req.URL
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment, u.User = "", false, "", "", nil
	return u.String()
}
`
		}
		files[path] = append(src, more...)
	}
	return files, nil
}

func stdPos(file string, line int) (p token.Position) {
	p.Filename, p.Line = file, line
	return p
}

// hookTable returns the table file's imports and statements that point
// the hooked packages at the runtime.
func hookTable(a *Analysis) (imports, stmts []string) {
	ids := hookIDs(a)
	for i, pkg := range []string{"database/sql", "net/http"} {
		list, ok := ids[pkg]
		if !ok {
			continue
		}
		name := fmt.Sprintf("__std%d", i)
		imports = append(imports, fmt.Sprintf("%s %q", name, pkg))
		s := make([]string, len(list))
		for k, id := range list {
			s[k] = fmt.Sprint(id)
		}
		stmts = append(stmts, fmt.Sprintf("%s.SuncatIDs = [%d]uint32{%s}", name, len(list), strings.Join(s, ", ")),
			fmt.Sprintf("%s.SuncatCall = String", name))
	}
	return imports, stmts
}
