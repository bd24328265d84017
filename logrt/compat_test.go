package logrt_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/internal/thirdparty"
)

// TestCompilesUnderGo118 builds the runtime's files as instrument copies
// them into instrumented programs (logrt's and its format definitions',
// tracefmt) in a module whose go directive is 1.18, so newer language
// features are rejected, for several systems and architectures; and it
// checks that the runtime links no reader code (logrt/tracefile), no
// control client (logrt/host) and nothing but the standard library.
func TestCompilesUnderGo118(t *testing.T) {
	dir := t.TempDir()
	files, err := instrument.RuntimeFiles("example.com/old/suncatrt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 || files["tracefmt/format.go"] == nil || files["runtime.go"] == nil {
		t.Fatalf("the runtime's files are incomplete: %d files", len(files))
	}
	checkRuntimeNames(t, files)
	for name, data := range files {
		dst := filepath.Join(dir, "suncatrt", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/old\n\ngo 1.18\n"), 0o644)
	// Vetting for another system compiles the standard library for it:
	// minutes on a fresh build cache. The plain go test ./... vets for
	// this one only; SUNCAT_SUITES=1 (as in CI) for all five.
	all := []string{"linux/amd64", "linux/arm64", "darwin/arm64", "windows/amd64", "linux/386"}
	targets := all
	if !thirdparty.Enabled() {
		targets = []string{runtime.GOOS + "/" + runtime.GOARCH}
		t.Logf("vetting for %s only; %s=1 vets for %s", targets[0], thirdparty.Env, strings.Join(all, ", "))
	}
	for _, target := range targets {
		goos, goarch, _ := strings.Cut(target, "/")
		cmd := exec.Command("go", "vet", "./suncatrt/...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", target, err, out)
		}
	}
	checkRuntimeDeps(t, dir)
}

// checkRuntimeNames checks that the runtime's files (files, as copied
// into programs) import nothing of suncat's and declare no name of the
// reader or the control client.
func checkRuntimeNames(t *testing.T, files map[string][]byte) {
	t.Helper()
	// Names that the reader and the control client declare.
	readers := map[string]bool{}
	for _, pkg := range []string{"tracefile", "host"} {
		for name := range declared(t, pkg) {
			if ast.IsExported(name) {
				readers[name] = true
			}
		}
	}
	for _, shared := range []string{"Getter", "MarkKind", "KindMark", "KindPause", "KindResume", "KindEnd", "MaxValue"} {
		delete(readers, shared) // tracefile's aliases of tracefmt's definitions
	}
	if !readers["DecodeFunc"] || !readers["SendControl"] {
		t.Fatalf("the reader's names were not found: %v", readers)
	}
	for name, data := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			if p := strings.Trim(im.Path.Value, `"`); p == "embed" || strings.Contains(p, "suncat-go") {
				t.Errorf("%s, copied into instrumented programs, imports %s", name, p)
			}
		}
	}
	for _, dir := range []string{".", "tracefmt"} {
		for name := range declared(t, dir) {
			if readers[name] {
				t.Errorf("the runtime (%s) declares %s, a name of the reader or the control client", dir, name)
			}
		}
	}
}

// checkRuntimeDeps checks what the runtime written in dir links into a
// program: the standard library without net (and so no cgo resolver),
// whatever the program itself uses.
func checkRuntimeDeps(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "./suncatrt")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	own := 0
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net" || dep == "runtime/cgo" || dep == "os/signal" {
			t.Errorf("the runtime depends on %s", dep)
		}
		if strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
			if dep != "example.com/old/suncatrt" && dep != "example.com/old/suncatrt/tracefmt" {
				t.Errorf("the runtime depends on %s, not of the standard library", dep)
			}
			own++
		}
	}
	if own != 2 {
		t.Errorf("go list -deps lists %d of the runtime's own packages, want 2 (suncatrt, suncatrt/tracefmt):\n%s", own, out)
	}
}

// declared returns the top-level names that the non-test files of the
// package in dir declare.
func declared(t *testing.T, dir string) map[string]bool {
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						names[d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							names[sp.Name.Name] = true
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names
}
