package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// eventsImporter gives the type checker the runtime's real API for reads
// and calls (logrt/events.go, with String and Getter stubbed).
type eventsImporter struct{ std types.Importer }

var (
	rtOnce sync.Once
	rtPkg  *types.Package
	rtErr  error
)

func (ei eventsImporter) Import(path string) (*types.Package, error) {
	if path != rtFake {
		return ei.std.Import(path)
	}
	rtOnce.Do(func() {
		fset := token.NewFileSet()
		ev, err := os.ReadFile("../logrt/events.go")
		if err != nil {
			rtErr = err
			return
		}
		fr, err := os.ReadFile("../logrt/frame.go")
		if err != nil {
			rtErr = err
			return
		}
		var files []*ast.File
		for name, src := range map[string]string{
			"events.go": string(ev),
			"frame.go":  string(fr), // its types and constants: FrameCache
			"stub.go":   "package logrt\n\nfunc String(id uint32, v string) string { return v }\n",
		} {
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				rtErr = err
				return
			}
			// Declarations only: no import to load.
			var decls []ast.Decl
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if ok && (g.Tok == token.IMPORT || g.Tok == token.VAR || g.Tok == token.CONST && name != "frame.go") || !ok && name == "frame.go" {
					continue
				}
				if fd, ok := d.(*ast.FuncDecl); ok {
					fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Rbrace, List: []ast.Stmt{&ast.ExprStmt{
						X: &ast.CallExpr{Fun: &ast.Ident{NamePos: fd.Body.Lbrace, Name: "panic"}, Lparen: fd.Body.Lbrace, Rparen: fd.Body.Lbrace,
							Args: []ast.Expr{&ast.BasicLit{ValuePos: fd.Body.Lbrace, Kind: token.INT, Value: "0"}}}}}}
				}
				decls = append(decls, d)
			}
			f.Decls, f.Imports = decls, nil
			files = append(files, f)
		}
		conf := types.Config{Importer: ei.std}
		rtPkg, rtErr = conf.Check(rtFake, fset, files, nil)
	})
	return rtPkg, rtErr
}

var stdImporter = importer.Default()

// rewriteEvents finds the sites of src (reads, and calls matching
// calls if not nil) and rewrites them. ok is false if src does not
// type-check as it is.
func rewriteEvents(t testing.TB, src []byte, reads bool, calls *regexp.Regexp) (out []byte, sites []Site, ok bool) {
	return rewriteAll(t, src, reads, calls, false)
}

// rewriteAll is rewriteEvents that, with getters, also makes a getter of
// every function that returns one string (none if two share a name).
func rewriteAll(t testing.TB, src []byte, reads bool, calls *regexp.Regexp, getters bool) (out []byte, sites []Site, ok bool) {
	return rewriteWith(t, src, reads, false, calls, getters)
}

// rewriteWith is rewriteAll that, with loops, also records every loop's
// turns.
func rewriteWith(t testing.TB, src []byte, reads, loops bool, calls *regexp.Regexp, getters bool) (out []byte, sites []Site, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", src, parser.SkipObjectResolution|parser.ParseComments) // directives, as go/packages parses
	if err != nil {
		return nil, nil, false
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{},
		Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: stdImporter, Error: func(error) {}}
	pkg, err := conf.Check("example.com/m", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, nil, false
	}
	sites, _ = findSites(fset, f, info, pkg, reads, loops, calls, nil, nil)
	numberSites(sites, 0)
	var gs []Getter
	if getters {
		if names, ok := stringFuncs(f); ok && len(names) > 0 {
			gs = gettersOf(t, src, names...)
		}
	}
	out, err = RewriteEvents("m.go", src, gs, sites, rtFake)
	if err != nil {
		t.Fatalf("rewrite: %v\n%s", err, src)
	}
	return out, sites, true
}

// stringFuncs returns the names of the functions of f that return one
// string, and false if two of them share a name.
func stringFuncs(f *ast.File) ([]string, bool) {
	var names []string
	seen := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 || len(fd.Type.Results.List[0].Names) > 1 {
			continue
		}
		if id, ok := fd.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "string" {
			if seen[fd.Name.Name] {
				return nil, false
			}
			seen[fd.Name.Name] = true
			names = append(names, fd.Name.Name)
		}
	}
	return names, true
}

// checkEvents checks that the rewrite of src keeps its lines, parses and
// type-checks against the runtime's API.
func checkEvents(t testing.TB, src, out []byte) {
	t.Helper()
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		t.Fatalf("%d lines became %d:\n%s", a, b, out)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", out, 0)
	if err != nil {
		t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
	}
	conf := types.Config{Importer: eventsImporter{stdImporter}}
	if _, err := conf.Check("example.com/m", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("rewritten file does not type-check: %v\nsource:\n%s\nrewritten:\n%s", err, src, out)
	}
}

const readsSrc = `package m

type Kind int

type Inner struct{ a [4]int; n uint8 }

type T struct {
	Name    string
	Aliases []string
	Index   map[string]int
	Kind    Kind
	On      bool
	Ratio   float64
	in      Inner
	p       *Inner
	fn      func() int
	arr     [3]string
	any     interface{}
}

func (i *Inner) Bump() { i.n++ }
func (i Inner) Get() uint8 { return i.n }

type G[E any] struct{ items []E; last E }

func (g *G[E]) Last() E { return g.last }

func f(t *T, u T, g *G[string]) (string, int) {
	t.Name = "x"
	t.Kind += 2
	t.in.n++
	p := &t.Name
	_ = p
	t.in.Bump()
	_ = t.in.Get()
	_ = t.in.a[1]
	s := t.arr[:]
	_ = s
	const n = len(T{}.arr)
	var a [len(T{}.arr)]int
	_ = a
	x := T{Name: t.Name, Aliases: t.Aliases}
	for _, al := range t.Aliases {
		_ = al
	}
	if t.On && t.Ratio > 0.5 || len(t.Index) > 0 || u.p.n > 0 {
		return t.Name + x.Name, int(t.Kind)
	}
	_ = t.fn() + len(t.arr) + len(g.items)
	t.Index["k"] = 1
	t.p.a[0] = 2
	t.p.n = 3
	_ = t.any
	_ = g.last
	_ = u.in.a[0:1]
	return t.arr[0], 0
}
`

func TestFindReads(t *testing.T) {
	src := []byte(readsSrc)
	out, sites, ok := rewriteEvents(t, src, true, nil)
	if !ok {
		t.Fatal("the test source does not type-check")
	}
	checkEvents(t, src, out)
	got := map[string]bool{}
	for _, s := range sites {
		got[s.key.Receiver+"."+s.key.Name+" "+s.Func] = true
	}
	for _, want := range []string{"T.Name ReadString", "T.Aliases ReadSlice", "T.Index ReadMap", "T.Kind ReadInt",
		"T.On ReadBool", "T.Ratio ReadFloat", "Inner.n ReadUint", "T.p ReadAs", "T.fn ReadAs", "G.items ReadSlice", "G.last ReadAs", "T.any ReadAs"} {
		if !got[want] {
			t.Errorf("no site %s; have %v", want, got)
		}
	}
	text := string(out)
	for _, bad := range []string{
		"ReadString(1, t.Name) =", // a write
		"&__suncat.",              // &t.Name
		"ReadAs(",                 // checked below, by line
	} {
		if bad == "ReadAs(" {
			continue
		}
		if strings.Contains(text, bad) {
			t.Errorf("rewritten %q:\n%s", bad, text)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		for _, notRead := range []string{"t.in.Bump()", "t.Kind += 2", "t.in.n++", "t.p.n = 3", "t.arr[:]", "const n = len(T{}.arr)"} {
			if strings.Contains(line, strings.Fields(notRead)[0]) && strings.HasPrefix(strings.TrimSpace(line), strings.Fields(notRead)[0]) && strings.Contains(line, "__suncat") && !strings.Contains(notRead, "p.n") {
				t.Errorf("not a read, rewritten: %s", line)
			}
		}
	}
}

// TestReadsOfAliasStructs: a struct declared by an alias (type T =
// struct{...}, as C-to-Go translators declare them: modernc.org/sqlite)
// names its fields by the alias, so that two structs' fields of one name
// stay apart; an unnamed struct's are "struct" as before.
func TestReadsOfAliasStructs(t *testing.T) {
	src := []byte("package m\n\ntype TPage = struct{ NCell int32 }\n\ntype TArray = struct {\n\tNCell int32\n\tRef   uintptr\n}\n\n" +
		"func f(p *TPage, a TArray, u *struct{ NCell int32 }) int32 { return p.NCell + a.NCell + u.NCell }\n")
	_, sites, ok := rewriteEvents(t, src, true, nil)
	if !ok {
		t.Fatal("the test source does not type-check")
	}
	got := map[string]bool{}
	for _, s := range sites {
		got[s.key.Receiver+"."+s.key.Name] = true
	}
	for _, want := range []string{"TPage.NCell", "TArray.NCell", "struct.NCell"} {
		if !got[want] {
			t.Errorf("no site %s; have %v", want, got)
		}
	}
}

// TestFindCallsMain: a function of package main matches -calls by its
// import path's last element or as main.F, as a user names it (the
// alertmanager trial wrote main\.match$ and recorded nothing).
func TestFindCallsMain(t *testing.T) {
	src := []byte("package main\n\nfunc even(i int) bool { return i%2 == 0 }\n\nfunc main() {\n\tn := 0\n\tfor i := 0; i < 10; i++ {\n\t\tif even(i) {\n\t\t\tn++\n\t\t}\n\t}\n\tprintln(n)\n}\n")
	for _, re := range []string{`main\.even$`, `m\.even$`} {
		_, sites, ok := rewriteEvents(t, src, false, regexp.MustCompile(re))
		if !ok {
			t.Fatal("the test source does not type-check")
		}
		if len(sites) != 1 {
			t.Errorf("-calls %s: %d sites, want the call of even", re, len(sites))
		}
	}
	if _, sites, _ := rewriteEvents(t, src, false, regexp.MustCompile(`main\.odd$`)); len(sites) != 0 {
		t.Errorf("-calls main\\.odd$: %d sites, want none", len(sites))
	}
}

func TestFindCalls(t *testing.T) {
	src := []byte(`package m

import "strings"

type Q string

type DB struct{}

func (*DB) Query(q string, args ...interface{}) int { return len(q) }
func fetch(k Q) Q                               { return k }
func ping()                                     {}
func Map[T any](t T) T                          { return t }
func Has[S ~[]E, E comparable](s S, e E) bool  { return len(s) > 0 && s[0] == e }
func Pair[A, B any](a A, b B) bool              { return true }

func g(db *DB, s string) {
	db.Query("SELECT 1")
	db.Query(s, 1)
	_ = fetch("k")
	_ = fetch(Q(s))
	ping()
	defer ping()
	_ = strings.ToUpper(s)
	_ = Map(s)
	_ = Map(1)
	_ = Has([]int{1}, 1)
	_ = Pair(1, len(s))
	_ = db.Query(s, next(&s))
	_ = db.Query(strings.TrimSpace(s), next(&s))
}

func next(s *string) int { *s += "x"; return 1 }
`)
	out, sites, ok := rewriteEvents(t, src, false, regexp.MustCompile(`DB\).Query|fetch|ping|ToUpper|Map|Has|Pair`))
	if !ok {
		t.Fatal("the test source does not type-check")
	}
	checkEvents(t, src, out)
	for _, want := range []string{
		`__suncat.Call(6, db.Query, "SELECT 1")("SELECT 1")`,
		`db.Query(__suncat.CallArg(6, s), 1)`,
		`__suncat.Call(`, `fetch, "k")("k")`,
		`fetch(__suncat.CallArg(`,
		`, ping, "ping")()`,
		`strings.ToUpper(__suncat.CallArg(`,
		`Map(__suncat.CallArg(`,
		// a generic call without a string argument: recorded at its
		// first typed one (a constant would change the inference)
		`Has(__suncat.CallWith(`, `[]int{1}, "Has"), 1)`,
		`Pair(1, __suncat.CallWith(`, `len(s), "Pair"))`,
		// gc reads s after next has changed it: the name, not a wrap of s
		`db.Query, "(*DB).Query")(s, next(&s))`,
		`db.Query(__suncat.CallArg(6, strings.TrimSpace(s)), next(&s))`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if len(sites) != 12 {
		t.Errorf("%d sites, want 12 (Map(1) is left out)", len(sites))
	}
}

// FuzzRewriteReads finds the field reads (and calls of every function)
// of a file that type-checks on its own and rewrites them: the result
// keeps the line count, parses and type-checks against the runtime.
func FuzzRewriteReads(f *testing.F) {
	f.Add(readsSrc)
	f.Add("package m\n\ntype M struct{ p *string; n int }\n\nfunc (x *M) Get() string { if x.p != nil { return *x.p }; return \"\" }\n")
	f.Add("package m\n\ntype S struct{ n string; s []S; m map[int]S }\n\nfunc (s *S) N() string { return s.n + s.s[0].n + s.m[1].s[2].n }\n")
	f.Add("package m\ntype P struct{ x, y int }\nvar v = P{}.x\nfunc F(p P) (int, bool) { p.x, p.y = p.y, p.x; return p.x, (p).y > 0 }\n")
	f.Add("package m\ntype A struct{ B }\ntype B struct{ c chan int }\nfunc F(a A) { a.c <- 1; <-a.B.c; close(a.c); go func() { a.c <- len(a.c) }() }\n")
	f.Add("package m\ntype P struct{ x int; s []int }\nfunc F(p *P, a []int) int {\nL:\n\tif p.x > 0 {\n\t\tgoto L\n\t}\n\tfor i := range func(y func(int) bool) { _ = y(p.x) } {\n\t\t_ = i + p.x\n\t}\n\tfor a[p.x] = range func(y func(int) bool) {} {\n\t}\n\treturn func() int { return p.s[0] }()\n}\n")
	all := regexp.MustCompile(".")
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		if bytes.Contains(src, []byte("import")) || bytes.Contains(src, []byte("__suncat")) {
			return // the standard library's export data is slow to load
		}
		out, _, ok := rewriteWith(t, src, true, true, all, true)
		if !ok {
			return
		}
		checkEvents(t, src, out)
	})
}

// TestFindLoops checks the turns of -loops: a statement first in each
// loop's body, on the line of the body's first statement (the loop's
// own for an empty or one-line body), before a read that starts that
// statement, in the frame of the innermost function (a range-over-func
// loop's body is one), each loop its own table entry; the output
// type-checks and keeps its lines.
func TestFindLoops(t *testing.T) {
	src := []byte(`package m

type P struct{ x int; s []int }

func F(p *P, names []string) int {
	n := 0
	for i := 0; i < p.x; i++ {
		n += i
	}
	for _, s := range names {
		p.s = append(p.s, len(s))
	}
	for range 3 { n++ }
	for {
	}
	go func() {
		for range names {
			n--
		}
	}()
	for i := range func(y func(int) bool) { _ = y(1) } {
		n += i
	}
	return n
}
`)
	out, sites, ok := rewriteWith(t, src, true, true, nil, false)
	if !ok {
		t.Fatal("the source does not type-check")
	}
	checkEvents(t, src, out)
	var turns []string
	for _, s := range sites {
		if s.Stmt {
			turns = append(turns, fmt.Sprintf("%d slot %d", s.Line, s.Slot))
		}
	}
	if got, want := strings.Join(turns, ", "), "7 slot 0, 10 slot 2, 13 slot 4, 14 slot 5, 17 slot 0, 21 slot 0"; got != want {
		t.Errorf("turn sites (loop line, slot): %s, want %s", got, want)
	}
	lines := strings.Split(string(out), "\n")
	for _, w := range []struct {
		line int
		text string
	}{
		{8, "\t\t__suncat.ReadBoolF(&__suncatF, 0, "},
		{11, "\t\t__suncat.ReadBoolF(&__suncatF, 2, "},
		{13, "\tfor range 3 {__suncat.ReadBoolF(&__suncatF, 4, "},
		{14, "\tfor {__suncat.ReadBoolF(&__suncatF, 5, "},
		{18, "\t\t\t__suncat.ReadBoolF(&__suncatF, 0, "},
		{21, "{var __suncatF __suncat.FrameCache; "},
		{22, "\t\t__suncat.ReadBoolF(&__suncatF, 0, "},
	} {
		if l := lines[w.line-1]; !strings.Contains(l, w.text) {
			t.Errorf("line %d: %q, want it to hold %q", w.line, l, w.text)
		}
	}
	if !regexp.MustCompile(`__suncat\.ReadBoolF\(&__suncatF, 2, \d+, true\); p\.s = append\(__suncat\.ReadSliceF`).Match(out) {
		t.Errorf("the turn of line 10 is not a statement before the read it precedes:\n%s", out)
	}
}

// TestPlainUnchanged checks that builds without -reads and -calls are
// what they were: the same getters under the same ids (the first ones
// of an analysis with events), no sites, hooks or runtime import of the
// command's file, the getter table file as before, and each rewritten
// file as Rewrite makes it.
func TestPlainUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("analyzes testdata/busapp twice")
	}
	dir, err := filepath.Abs("../testdata/busapp")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plain, err := Analyze(ctx, Options{Dir: dir, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Analyze(ctx, Options{Dir: dir, NoCache: true, Reads: true, Calls: "sql,http,Name"})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Sites) != 0 || len(plain.Hooks) != 0 || plain.MainFile != "" {
		t.Errorf("plain analysis has events: %d sites, hooks %v, main file %q", len(plain.Sites), plain.Hooks, plain.MainFile)
	}
	if len(ev.Sites) == 0 || len(ev.Getters) <= len(plain.Getters) {
		t.Fatalf("no events with -reads: %d sites, %d entries", len(ev.Sites), len(ev.Getters))
	}
	if !reflect.DeepEqual(plain.Getters, ev.Getters[:len(plain.Getters)]) {
		t.Errorf("the getters changed with -reads:\n%v\n%v", plain.Getters, ev.Getters[:len(plain.Getters)])
	}
	table := tableSource(plain, BuildOptions{})
	if strings.Contains(table, "import") || strings.Contains(table, "Suncat") || strings.Count(table, "{ID:") != len(plain.Getters) {
		t.Errorf("plain table:\n%s", table)
	}
	for _, g := range plain.Getters {
		src, err := os.ReadFile(g.Pos.Filename)
		if err != nil {
			t.Fatal(err)
		}
		var gs []Getter
		for _, h := range plain.Getters {
			if h.Pos.Filename == g.Pos.Filename {
				gs = append(gs, h)
			}
		}
		a, err1 := Rewrite(g.Pos.Filename, src, gs, rtFake)
		b, err2 := RewriteEvents(g.Pos.Filename, src, gs, nil, rtFake)
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: Rewrite and RewriteEvents differ (%v, %v)", g.Pos.Filename, err1, err2)
		}
	}
}

// TestEventsVet builds the overlay of testdata/eventsapp with -reads and
// -calls (sql, http and a pattern) and runs go vet and go build on the
// rewritten package.
func TestEventsVet(t *testing.T) {
	if testing.Short() {
		t.Skip("vets an instrumented build")
	}
	dir, err := filepath.Abs("../testdata/eventsapp")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := BuildOptions{Options: Options{Dir: dir, NoCache: true, Reads: true, Calls: `sql,http,eventsapp\.fetch$`}}
	a, err := Analyze(ctx, opt.Options)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sites) < 10 || a.MainFile == "" || len(a.Hooks) != 2 {
		t.Fatalf("analysis: %d sites, main file %q, hooks %v", len(a.Sites), a.MainFile, a.Hooks)
	}
	p, err := prepare(ctx, a, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// go vet changes into the directory of every package it vets, so the
	// runtime and the rewritten files are written into a copy of the
	// module; the standard library's hooked files stay overlays.
	var ovl struct{ Replace map[string]string }
	data, err := os.ReadFile(p.Args[1])
	if err != nil || json.Unmarshal(data, &ovl) != nil {
		t.Fatalf("overlay %s: %v", p.Args[1], err)
	}
	cp := t.TempDir()
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	std := map[string]string{}
	for from, to := range ovl.Replace {
		rel, err := filepath.Rel(dir, from)
		if err != nil || strings.HasPrefix(rel, "..") {
			std[from] = to
			continue
		}
		data, err := os.ReadFile(to)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(cp, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(std) != 2 {
		t.Errorf("%d standard library files overlaid, want 2 (sql.go, client.go)", len(std))
	}
	data, _ = json.Marshal(struct{ Replace map[string]string }{std})
	stdOvl := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(stdOvl, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"vet", "-overlay", stdOvl, "./..."}, {"build", "-overlay", stdOvl, "-o", os.DevNull, "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = cp
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s", args[0], err, out)
		}
	}
}

// TestFrameDeclarations checks where the rewrite declares frame caches
// (Site.Frame): once at the start of each function body that reads
// fields, the innermost function literal's for reads in closures,
// goroutine literals and deferred ones, the body's own for reads in the
// body of a range-over-func loop (a function the compiler makes), none
// for reads outside functions or in a range-over-func loop's key, and
// that a goto and its label at the start of a body still compile.
func TestFrameDeclarations(t *testing.T) {
	src := []byte(`package m

type P struct{ x, y int; s []int }

var v = P{}.x
var fn = func(p P) int { return p.x }

func seq(p *P) func(func(int) bool) {
	return func(yield func(int) bool) { for _, x := range p.s { if !yield(x) { return } } }
}

func none(p *P) int { return len(seq(p) == nil) }

func F(p *P, a []int) int {
L:
	if p.x > 0 {
		goto L
	}
	n := p.y
	for i := range seq(p) {
		n += i + p.x
	}
	for a[p.y] = range seq(p) {
	}
	for range a {
		n += p.x
	}
	go func() { _ = p.y }()
	defer func() { _ = p.x }()
	return n
}
`)
	src = bytes.Replace(src, []byte("len(seq(p) == nil)"), []byte("0"), 1)
	out, sites, ok := rewriteEvents(t, src, true, nil)
	if !ok {
		t.Fatal("the test source does not type-check")
	}
	checkEvents(t, src, out)
	text := string(out)
	const decl = "var __suncatF __suncat.FrameCache; "
	for _, want := range []string{
		"var v = __suncat.ReadInt(2, P{}.x)",
		"var fn = func(p P) int {" + decl + " return __suncat.ReadIntF(&__suncatF, 0, 2, p.x) }",
		"return func(yield func(int) bool) {" + decl + " for _, x := range __suncat.ReadSliceF(&__suncatF, 0, 1, p.s)",
		"func none(p *P) int { return 0 }",
		"func F(p *P, a []int) int {" + decl + "\nL:\n\tif __suncat.ReadIntF(&__suncatF, 0, 2, p.x) > 0 {",
		"n := __suncat.ReadIntF(&__suncatF, 1, 3, p.y)",
		"for i := range seq(p) {" + decl + "\n\t\tn += i + __suncat.ReadIntF(&__suncatF, 0, 2, p.x)",
		"for a[__suncat.ReadInt(3, p.y)] = range seq(p) {",
		"n += __suncat.ReadIntF(&__suncatF, 2, 2, p.x)",
		"go func() {" + decl + " _ = __suncat.ReadIntF(&__suncatF, 0, 3, p.y) }()",
		"defer func() {" + decl + " _ = __suncat.ReadIntF(&__suncatF, 0, 2, p.x) }()",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if n := strings.Count(text, decl); n != 6 {
		t.Errorf("%d declarations, want 6:\n%s", n, text)
	}
	for _, s := range sites {
		if s.Frame > 0 && src[s.Frame-1] != '{' {
			t.Errorf("site %+v: its frame is not after a {", s)
		}
	}
}

// TestGetterEnclosesReads: a getter whose returned expression ends with a
// read site (return *x.p, over a *string field) is wrapped outside the
// read, at both ends, whichever is queued first; the result type-checks.
func TestGetterEnclosesReads(t *testing.T) {
	src := []byte(`package m

type M struct {
	Rev  *string
	Name string
	n    int
}

func (x *M) GetRev() string {
	if x != nil && x.Rev != nil {
		return *x.Rev
	}
	return ""
}

func (x *M) Label() string { return x.Name[:x.n] }
`)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{},
		Defs: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: stdImporter}).Check("example.com/m", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	sites, _ := findSites(fset, f, info, pkg, true, false, nil, nil, nil)
	numberSites(sites, 0)
	at := func(decl string) token.Position {
		return token.Position{Filename: "m.go", Offset: bytes.Index(src, []byte(decl))}
	}
	gs := []Getter{
		{ID: 7, Method: "GetRev", Receiver: "*M", Pos: at("func (x *M) GetRev"), NumResults: 1},
		{ID: 8, Method: "Label", Receiver: "*M", Pos: at("func (x *M) Label"), NumResults: 1},
	}
	out, err := RewriteEvents("m.go", src, gs, sites, rtFake)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, src, out)
	for _, want := range []string{
		`return __suncat.String(7, *__suncat.ReadAsF(&__suncatF, 1, 2, x.Rev, "*string"))`,
		`return __suncat.String(8, __suncat.ReadStringF(&__suncatF, 0, 1, x.Name)[:__suncat.ReadIntF(&__suncatF, 1, 3, x.n)]) }`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// TestUnwrappableReads: reads that a wrap would change are left as they
// are, each found by a sweep of published modules or by hand
// (order.go): a read before a call in the same expression (gc reads it
// after the call), inside a constant expression or an array range that
// Go does not evaluate, a pointer to an array sliced (a compiler crash),
// and in a //go:nosplit function. The reads beside them that are safe
// are wrapped; the result type-checks.
func TestUnwrappableReads(t *testing.T) {
	src := []byte(`package m

import "strconv"

type st struct{ buf [16]byte }
type lexer struct {
	pos   int
	items []string
	st    *st
	chunk *[32]byte
	url   string
	arr   [4]byte
}

func (l *lexer) next() int { l.pos++; return l.pos }

func F(l *lexer) (int, int) {
	start, end := l.pos, l.next()
	l.items = append(l.items, strconv.Itoa(l.pos))
	var tmp [len(l.st.buf)]byte
	n := len(l.st.buf) + len(tmp) + len(l.chunk[:4])
	for i := range l.st.buf {
		n += i
	}
	if l.pos > 0 && l.next() > 0 {
		n++
	}
	_ = l.url + strconv.Itoa(n) + l.url
	a, x := l.arr, append(l.arr[:0], 7)
	b, y := l.arr, strconv.AppendInt(l.arr[:0], 7, 10)
	_, _, _, _ = a, x, b, y
	return start + n, end
}

//go:nosplit
func G(l *lexer) int { return l.pos }
`)
	out, _, ok := rewriteEvents(t, src, true, nil)
	if !ok {
		t.Fatal("the test source does not type-check")
	}
	checkEvents(t, src, out)
	text := string(out)
	for _, want := range []string{
		"start, end := l.pos, l.next()",                    // before a call
		"var tmp [len(l.st.buf)]byte",                      // a constant
		"n := len(l.st.buf) + len(tmp) + len(l.chunk[:4])", // a constant, then a pointer to an array sliced
		"for i := range l.st.buf {",                        // not evaluated
		"func G(l *lexer) int { return l.pos }",            // nosplit
		"a, x := l.arr, append(l.arr[:0], 7)",              // append writes l.arr first
		"b, y := l.arr, strconv.AppendInt(l.arr[:0], 7, 10)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q, unchanged, in\n%s", want, text)
		}
	}
	for _, want := range []string{
		"append(__suncat.ReadSliceF(&__suncatF, 0, 1, l.items), strconv.Itoa(__suncat.ReadIntF(", // strconv writes nothing of ours
		"if __suncat.ReadIntF(&__suncatF, ", // && evaluates its left side first
		"__suncat.ReadStringF(&__suncatF, ", // l.url, both
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if n := strings.Count(text, "l.url)"); n != 2 {
		t.Errorf("l.url wrapped %d times, want 2:\n%s", n, text)
	}
}
