package instrument

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	src := []byte(`//go:build linux || !linux

// Package m is a test.
package m // trailing comment

type Name string

type S struct{ name string }

func (s *S) Name() string { return s.name }

func (s *S) Typed() Name {
	if s == nil {
		return ""
	}
	return Name(s.name) // keep me
}

func (s *S) Bare() (n string, ok bool) {
	n, ok = s.name, true
	f := func() string { return "inner" }
	_ = f
	return
}
`)
	at := func(decl string) token.Position {
		return token.Position{Filename: "m.go", Offset: bytes.Index(src, []byte(decl))}
	}
	gs := []Getter{
		{ID: 1, Method: "Name", Receiver: "*S", Pos: at("func (s *S) Name"), NumResults: 1},
		{ID: 2, Method: "Typed", Receiver: "*S", Pos: at("func (s *S) Typed"), NumResults: 1},
		{ID: 3, Method: "Bare", Receiver: "*S", Pos: at("func (s *S) Bare"), NumResults: 2},
	}
	out, err := Rewrite("m.go", src, gs, "example.com/m/internal/suncatrt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"//go:build linux || !linux\n",
		`package m; import __suncat "example.com/m/internal/suncatrt" // trailing comment`,
		`return __suncat.String(1, s.name) }`,
		`return (Name)(__suncat.String(2, string(""))`,
		`return (Name)(__suncat.String(2, string(Name(s.name)))) // keep me`,
		`return __suncat.String(3, n), ok` + "\n",
		`return "inner"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Errorf("line count changed")
	}
	// A getter that is not in the file is an error, not a silent skip.
	if _, err := Rewrite("m.go", src, append(gs, Getter{ID: 4, Pos: token.Position{Offset: 3}}), "x"); err == nil {
		t.Errorf("missing getter: no error")
	}
}

func TestEditBufferOverlapPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("no panic on overlapping edits")
		}
	}()
	b := newEditBuffer([]byte("hello world"))
	b.replace(0, 5, "x")
	b.replace(3, 7, "y")
	b.bytes()
}

// rtFake is the runtime as the type checker sees it in rewrite tests.
const rtFake = "example.com/m/suncatrt"

type fakeImporter struct{ std types.Importer }

func (fi fakeImporter) Import(path string) (*types.Package, error) {
	if path != rtFake {
		return fi.std.Import(path)
	}
	pkg := types.NewPackage(rtFake, "logrt")
	str := types.Typ[types.String]
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, pkg, "id", types.Typ[types.Uint32]), types.NewVar(token.NoPos, pkg, "v", str)),
		types.NewTuple(types.NewVar(token.NoPos, pkg, "", str)), false)
	pkg.Scope().Insert(types.NewFunc(token.NoPos, pkg, "String", sig))
	pkg.Scope().Insert(types.NewFunc(token.NoPos, pkg, "End", types.NewSignatureType(nil, nil, nil, nil, nil, false)))
	code := types.NewTuple(types.NewVar(token.NoPos, pkg, "code", types.Typ[types.Int]))
	pkg.Scope().Insert(types.NewFunc(token.NoPos, pkg, "ExitCode", types.NewSignatureType(nil, nil, nil, code,
		types.NewTuple(types.NewVar(token.NoPos, pkg, "", types.Typ[types.Int])), false)))
	pkg.MarkComplete()
	return pkg, nil
}

// gettersOf makes a Getter of every function of src named in names, the
// way the classifier would: the string result and the result count.
func gettersOf(t testing.TB, src []byte, names ...string) []Getter {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var gs []Getter
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !want[fd.Name.Name] || fd.Type.Results == nil {
			continue // a function of that name with no result is not the getter
		}
		n := 0
		for _, r := range fd.Type.Results.List {
			if len(r.Names) == 0 {
				n++
			} else {
				n += len(r.Names)
			}
		}
		gs = append(gs, Getter{ID: uint32(len(gs) + 1), Method: fd.Name.Name, Pos: fset.PositionFor(fd.Pos(), false), NumResults: n})
	}
	if len(gs) != len(names) {
		t.Fatalf("found %d of the getters %v", len(gs), names)
	}
	return gs
}

// TestRewriteCases rewrites one file per case, checks the edits, that no
// line moved, and that the result type-checks against the runtime's API.
func TestRewriteCases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		getters []string
		want    []string
	}{
		{
			name:    "value and pointer receivers",
			src:     "package m\n\ntype S struct{ a, b string }\n\nfunc (s S) A() string { return s.a }\nfunc (s *S) B() string {\n\treturn s.b\n}\n",
			getters: []string{"A", "B"},
			want:    []string{"return __suncat.String(1, s.a) }", "\treturn __suncat.String(2, s.b)\n"},
		},
		{
			name:    "generic receiver",
			src:     "package m\n\ntype List[T any] struct{ name string; xs []T }\n\nfunc (l *List[T]) Name() string { return l.name }\n",
			getters: []string{"Name"},
			want:    []string{"func (l *List[T]) Name() string { return __suncat.String(1, l.name) }"},
		},
		{
			name:    "named string type and untyped constant",
			src:     "package m\n\ntype Color string\ntype P struct{ c Color }\n\nfunc (p *P) C() Color {\n\tif p == nil {\n\t\treturn \"none\"\n\t}\n\treturn p.c\n}\n",
			getters: []string{"C"},
			want:    []string{`return (Color)(__suncat.String(1, string("none")))`, "return (Color)(__suncat.String(1, string(p.c)))"},
		},
		{
			name:    "a local variable named like the result type",
			src:     "package m\n\ntype Name string\ntype N struct{ n Name }\n\nfunc (x *N) Get() Name {\n\tName := x.n\n\treturn Name\n}\n",
			getters: []string{"Get"},
			want:    []string{"package m; import __suncat \"example.com/m/suncatrt\"; type __suncatR1 = Name; type __suncatS1 = string\n", "\treturn (__suncatR1)(__suncat.String(1, __suncatS1(Name)))\n"},
		},
		{
			name:    "a directive before the getter, a variable named string, an import",
			src:     "package m\n\nimport \"strings\"\n\ntype Name string\ntype N struct{ n Name }\n\n//go:noinline\nfunc (x *N) Get() Name {\n\tstring := strings.ToUpper(\"x\")\n\t_ = string\n\treturn x.n\n}\n",
			getters: []string{"Get"},
			want:    []string{"import \"strings\"; type __suncatR1 = Name; type __suncatS1 = string\n", "\n//go:noinline\nfunc (x *N) Get() Name {\n", "\treturn (__suncatR1)(__suncat.String(1, __suncatS1(x.n)))\n"},
		},
		{
			name:    "string and bool",
			src:     "package m\n\ntype M struct{ v map[string]bool; s string }\n\nfunc (m *M) Get() (string, bool) {\n\tif m == nil {\n\t\treturn \"\", false\n\t}\n\treturn m.s, true\n}\n",
			getters: []string{"Get"},
			want:    []string{`return __suncat.String(1, ""), false`, "return __suncat.String(1, m.s), true"},
		},
		{
			name:    "bare returns with named results, closures untouched",
			src:     "package m\n\ntype S struct{ s string }\n\nfunc (x *S) Get() (s string, ok bool) {\n\tf := func() (string, bool) { return \"\", true }\n\t_ = f\n\tif x == nil {\n\t\treturn\n\t}\n\ts, ok = x.s, true\n\treturn\n}\n",
			getters: []string{"Get"},
			want:    []string{"\t\treturn __suncat.String(1, s), ok\n", "f := func() (string, bool) { return \"\", true }", "\treturn __suncat.String(1, s), ok\n}"},
		},
		{
			name:    "defer unlock and a multi-line expression",
			src:     "package m\n\nimport \"sync\"\n\ntype S struct {\n\tmu sync.Mutex\n\tin struct{ name string }\n}\n\nfunc (s *S) Name() string {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s.\n\t\tin.name\n}\n",
			getters: []string{"Name"},
			want:    []string{"return __suncat.String(1, s.\n\t\tin.name)\n"},
		},
		{
			name:    "build constraint, comments and semicolon after the package clause",
			src:     "//go:build !never\n\n// Package m.\npackage /* c */ m; import \"strings\" // x\n\nvar _ = strings.ToUpper\n\ntype S struct{ n string }\n\nfunc (s *S) N() string { return s.n }\n",
			getters: []string{"N"},
			want:    []string{"//go:build !never\n\n// Package m.\npackage /* c */ m; import __suncat \"" + rtFake + "\"; import \"strings\" // x\n"},
		},
		{
			name:    "package main: main defers the runtime's End",
			src:     "package main\n\ntype S struct{ n string }\n\nfunc (s *S) N() string { return s.n }\n\nfunc main() {\n\tprintln((&S{}).N())\n}\n",
			getters: []string{"N"},
			want:    []string{"func main() {defer __suncat.End(); \n"},
		},
		{
			name: "package main with no getter still imports the runtime by name",
			src:  "package main\n\nfunc helper() {}\n\nfunc main() { helper() }\n",
			want: []string{"package main; import __suncat \"" + rtFake + "\"\n", "func main() {defer __suncat.End();  helper() }"},
		},
		{
			name: "main's file: os.Exit's code notes the end first, under any name of os",
			src:  "package main\n\nimport sys \"os\"\n\nfunc run() int { return 2 }\n\nfunc main() {\n\tif len(sys.Args) > 1 {\n\t\tsys.Exit(run())\n\t}\n\tsys.Exit((0))\n}\n",
			want: []string{"\t\tsys.Exit(__suncat.ExitCode(run()))\n", "\tsys.Exit(__suncat.ExitCode((0)))\n"},
		},
		{
			name:    "a method named main is not main",
			src:     "package main\n\ntype T struct{ s string }\n\nfunc (t T) main() string { return t.s }\n",
			getters: []string{"main"},
			want:    []string{"func (t T) main() string { return __suncat.String(1, t.s) }"},
		},
		{
			name:    "plain function and a switch",
			src:     "package m\n\ntype S struct{ k int; a, b string }\n\nfunc pick(s *S) string {\n\tswitch s.k {\n\tcase 0:\n\t\treturn s.a\n\t}\n\treturn s.b\n}\n",
			getters: []string{"pick"},
			want:    []string{"\t\treturn __suncat.String(1, s.a)\n", "\treturn __suncat.String(1, s.b)\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) { checkRewrite(t, tc.src, tc.getters, tc.want) })
	}
}

// checkRewrite rewrites the getters of src and checks that the result
// holds each of want, has src's lines, and type-checks against the
// runtime's API.
func checkRewrite(t *testing.T, source string, getters, want []string) {
	t.Helper()
	src := []byte(source)
	out, err := Rewrite("m.go", src, gettersOf(t, src, getters...), rtFake)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("missing %q in:\n%s", w, out)
		}
	}
	if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
		t.Errorf("%d lines became %d", a, b)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", out, 0)
	if err != nil {
		t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
	}
	conf := types.Config{Importer: fakeImporter{importer.Default()}}
	if _, err := conf.Check("example.com/m", fset, []*ast.File{f}, nil); err != nil {
		t.Errorf("rewritten file does not type-check: %v\n%s", err, out)
	}
}

// FuzzRewrite rewrites every function of a parsable file that returns a
// string (or a string and another value) and checks the invariants: no
// panic, and on success the same line count and a file that still parses.
func FuzzRewrite(f *testing.F) {
	f.Add("package m\n\nfunc (s *S) N() string { return s.n }\n")
	f.Add("package m\nfunc F() (a string, b bool) { if true { return }; return \"x\", false }\n")
	f.Add("//go:build x\n\npackage /* c */ m // d\n\nfunc G() (string, error) { return func() string { return \"\" }(), nil }\n")
	f.Add("package main\n\nfunc (s *S) N() string { return s.n }\n\nfunc main() { // x\n}\n")
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "m.go", src, parser.SkipObjectResolution)
		if err != nil {
			return
		}
		var names []string
		seen := map[string]bool{}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if seen[fd.Name.Name] {
				return // two functions of one name: gettersOf picks by name
			}
			seen[fd.Name.Name] = true
			if fd.Body != nil && fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
				if id, ok := fd.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "string" {
					names = append(names, fd.Name.Name)
				}
			}
		}
		if len(names) == 0 {
			return
		}
		out, err := Rewrite("m.go", src, gettersOf(t, src, names...), rtFake)
		if err != nil {
			return
		}
		if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
			t.Fatalf("%d lines became %d:\n%s", a, b, out)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "m.go", out, parser.SkipObjectResolution); err != nil {
			t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
		}
	})
}
