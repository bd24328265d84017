package instrument

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Tests of analyze's stages that need no go command: they take import
// graphs made by hand. The stages that load packages are tested through
// Analyze (classify_test.go, cache_test.go).

// graph links packages: imports[p] are p's imports.
func graph(imports map[*packages.Package][]*packages.Package) {
	for p, deps := range imports {
		p.Imports = map[string]*packages.Package{}
		for _, d := range deps {
			p.Imports[d.PkgPath] = d
		}
	}
}

func TestOurPackages(t *testing.T) {
	mainMod := &packages.Module{Path: "example.com/app", Dir: "/src/app", Main: true}
	lib := &packages.Module{Path: "example.com/lib", Version: "v1.2.0", Dir: "/mod/lib@v1.2.0"}
	forked := &packages.Module{Path: "example.com/fork", Version: "v0.1.0", Dir: "/mod/fork@v0.1.0",
		Replace: &packages.Module{Path: "../fork", Dir: "/src/fork"}}
	other := &packages.Module{Path: "example.com/other", Version: "v1.0.0", Dir: "/mod/other"}
	pkg := func(path string, m *packages.Module) *packages.Package {
		return &packages.Package{ID: path, PkgPath: path, Name: path[strings.LastIndex(path, "/")+1:], Module: m}
	}
	cmd := pkg("example.com/app/cmd/app", mainMod)
	cmd.Name = "main"
	model := pkg("example.com/app/model", mainMod)
	modelTest := &packages.Package{ID: "example.com/app/model [example.com/app/model.test]", PkgPath: "example.com/app/model", Module: mainMod}
	xtest := &packages.Package{ID: "example.com/app/model_test [example.com/app/model.test]", PkgPath: "example.com/app/model_test", Module: mainMod}
	testMain := &packages.Package{ID: "example.com/app/model.test", PkgPath: "example.com/app/model.test", Name: "main", Module: mainMod}
	bad := pkg("example.com/app/bad", mainMod)
	bad.Errors = []packages.Error{{Msg: "undefined: x"}}
	libA, libB := pkg("example.com/lib/a", lib), pkg("example.com/lib/b", lib)
	fork := pkg("example.com/fork", forked)
	oth := pkg("example.com/other/x", other)
	std := pkg("strings", nil)
	graph(map[*packages.Package][]*packages.Package{
		cmd:      {model, bad, libB, fork, oth, std},
		model:    {libA, std},
		testMain: {modelTest, xtest},
		xtest:    {modelTest},
	})
	roots := []*packages.Package{cmd, testMain}

	a := &Analysis{}
	got := ourPackages(a, roots, nil)
	if want := []string{"example.com/app/cmd/app", "example.com/app/model"}; !reflect.DeepEqual(got, want) {
		t.Errorf("main module only: %q, want %q", got, want)
	}
	if a.ModulePath != "example.com/app" || a.ModuleDir != "/src/app" || a.DepModules != nil {
		t.Errorf("main module only: module %q in %q, dep modules %v", a.ModulePath, a.ModuleDir, a.DepModules)
	}

	deps, err := depMatcher("example.com/lib/...,example.com/fork")
	if err != nil {
		t.Fatal(err)
	}
	a = &Analysis{}
	got = ourPackages(a, roots, deps)
	want := []string{"example.com/app/cmd/app", "example.com/app/model", "example.com/fork", "example.com/lib/a", "example.com/lib/b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with -deps: %q, want %q", got, want)
	}
	wantMods := []DepModule{
		{Path: "example.com/fork", Version: "v0.1.0", Dir: "/src/fork", Replaced: true},
		{Path: "example.com/lib", Version: "v1.2.0", Dir: "/mod/lib@v1.2.0"},
	}
	if !reflect.DeepEqual(a.DepModules, wantMods) {
		t.Errorf("dependency modules %+v, want %+v", a.DepModules, wantMods)
	}
}

// TestDepHints: a -deps pattern that names a module's path takes that
// package alone; when the program uses more of the module's packages,
// the hint says how many and names the pattern that takes them all. A
// pattern with "..." or one that takes all the module's packages the
// program uses gets none.
func TestDepHints(t *testing.T) {
	mainMod := &packages.Module{Path: "example.com/app", Dir: "/src/app", Main: true}
	lib := &packages.Module{Path: "example.com/lib", Version: "v1.2.0", Dir: "/mod/lib@v1.2.0"}
	one := &packages.Module{Path: "example.com/one", Version: "v1.0.0", Dir: "/mod/one@v1.0.0"}
	pkg := func(path string, m *packages.Module) *packages.Package {
		return &packages.Package{ID: path, PkgPath: path, Name: path[strings.LastIndex(path, "/")+1:], Module: m}
	}
	cmd := pkg("example.com/app", mainMod)
	cmd.Name = "main"
	root, plumbing, tree, single := pkg("example.com/lib", lib), pkg("example.com/lib/plumbing", lib), pkg("example.com/lib/plumbing/tree", lib), pkg("example.com/one", one)
	graph(map[*packages.Package][]*packages.Package{
		cmd:      {root, single},
		root:     {plumbing},
		plumbing: {tree},
	})
	roots := []*packages.Package{cmd}
	for spec, want := range map[string][]string{
		"example.com/lib,example.com/one": {"-deps example.com/lib takes 1 of the 3 packages of module example.com/lib that the program uses; example.com/lib/... takes them all"},
		"example.com/lib/...":             nil,
		"example.com/one":                 nil,
	} {
		deps, err := depMatcher(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := depHints(roots, spec, deps); !reflect.DeepEqual(got, want) {
			t.Errorf("-deps %s: %q, want %q", spec, got, want)
		}
	}
}

func TestDepModule(t *testing.T) {
	m := &packages.Module{Path: "example.com/m", Version: "v1.0.0", Dir: "/mod/m",
		Replace: &packages.Module{Path: "example.com/m2", Version: "v2.0.0"}} // a module replacement has no directory of its own here
	if got, want := depModule(m), (DepModule{Path: "example.com/m", Version: "v1.0.0", Dir: "/mod/m", Replaced: true}); got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}

func TestNoDepMatch(t *testing.T) {
	cases := []struct{ spec, want string }{
		{"example.com/none/...", `"example.com/none/..." matches no dependency of ./cmd/a ./cmd/b`},
		{" net/http", `" net/http" matches no dependency of ./cmd/a ./cmd/b (the standard library cannot be instrumented)`},
		{"fmt", `"fmt" matches no dependency of ./cmd/a ./cmd/b (the standard library cannot be instrumented)`},
	}
	for _, tc := range cases {
		err := noDepMatch(tc.spec, "./cmd/a ./cmd/b")
		if got := err.Error(); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.spec, got, tc.want)
		}
		if !errors.Is(err, ErrNoDependency) {
			t.Errorf("%q: %v is not ErrNoDependency", tc.spec, err)
		}
	}
}

func TestAddRoots(t *testing.T) {
	mainMod := &packages.Module{Path: "example.com/app", Main: true}
	dep := &packages.Module{Path: "example.com/dep"}
	roots := []*packages.Package{
		{ID: "example.com/app/cmd/app", PkgPath: "example.com/app/cmd/app", Name: "main", Module: mainMod,
			GoFiles: []string{"/app/cmd/app/main.go"}},
		{ID: "example.com/app/model", PkgPath: "example.com/app/model", Name: "model", Module: mainMod,
			GoFiles: []string{"/app/model/model.go"}},
		{ID: "example.com/app/model [example.com/app/model.test]", PkgPath: "example.com/app/model", Name: "model", Module: mainMod,
			GoFiles: []string{"/app/model/model.go", "/app/model/z_test.go", "/app/model/a_test.go"}},
		{ID: "example.com/app/model_test [example.com/app/model.test]", PkgPath: "example.com/app/model_test", Name: "model_test", Module: mainMod,
			GoFiles: []string{"/app/model/x_test.go", "/app/model/a_test.go"}},
		{ID: "example.com/app/model.test", PkgPath: "example.com/app/model.test", Name: "main", Module: mainMod,
			GoFiles: []string{"/cache/testmain.go"}},
		{ID: "example.com/dep/lib", PkgPath: "example.com/dep/lib", Name: "lib", Module: dep,
			GoFiles: []string{"/mod/dep/lib/lib_test.go"}},
	}
	a := &Analysis{}
	addRoots(a, roots, false)
	if want := []string{"example.com/app/cmd/app"}; !reflect.DeepEqual(a.Commands, want) || a.Roots != nil || a.TestFiles != nil {
		t.Errorf("without tests: commands %q, roots %q, test files %q; want %q and none", a.Commands, a.Roots, a.TestFiles, want)
	}
	a = &Analysis{}
	addRoots(a, roots, true)
	if want := []string{"example.com/app/cmd/app"}; !reflect.DeepEqual(a.Commands, want) {
		t.Errorf("with tests: commands %q, want %q", a.Commands, want)
	}
	if want := []string{"example.com/app/cmd/app", "example.com/app/model", "example.com/dep/lib"}; !reflect.DeepEqual(a.Roots, want) {
		t.Errorf("with tests: roots %q, want %q", a.Roots, want)
	}
	if want := []string{"/app/model/a_test.go", "/app/model/x_test.go", "/app/model/z_test.go"}; !reflect.DeepEqual(a.TestFiles, want) {
		t.Errorf("with tests: test files %q, want %q", a.TestFiles, want)
	}
}

func TestAddBroken(t *testing.T) {
	mainMod := &packages.Module{Path: "example.com/app", Main: true}
	errs := []packages.Error{{Msg: "undefined: x"}}
	ok := &packages.Package{ID: "example.com/app/ok", PkgPath: "example.com/app/ok", Module: mainMod}
	xtest := &packages.Package{ID: "example.com/app/a_test [example.com/app/a.test]", PkgPath: "example.com/app/a_test", Module: mainMod, Errors: errs}
	b := &packages.Package{ID: "example.com/app/b", PkgPath: "example.com/app/b", Module: mainMod, Errors: errs}
	dep := &packages.Package{ID: "example.com/dep", PkgPath: "example.com/dep", Module: &packages.Module{Path: "example.com/dep"}, Errors: errs}
	graph(map[*packages.Package][]*packages.Package{ok: {b, dep}})
	broken := map[string]bool{"example.com/app/c": true}
	addBroken(broken, []*packages.Package{ok, xtest})
	want := map[string]bool{"example.com/app/a": true, "example.com/app/b": true, "example.com/app/c": true}
	if !reflect.DeepEqual(broken, want) {
		t.Errorf("broken %v, want %v", broken, want)
	}
	var out bytes.Buffer
	reportBroken(broken, progressTo(&out))
	reportBroken(nil, progressTo(&out))
	if got := out.String(); got != "suncat: 3 package(s) do not build; go test reports them\n" {
		t.Errorf("report %q", got)
	}
	progressTo(nil)("nowhere %d", 1) // must not panic
}
