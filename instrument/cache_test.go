package instrument

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/thirdparty"
)

// TestAnalysisCache: a second analysis of unchanged sources comes from the
// cache; a changed file is analyzed again and its new getter is found.
func TestAnalysisCache(t *testing.T) {
	dir := t.TempDir()
	// Keep the go command's own build cache; move only suncat's.
	if gocache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir) // os.UserCacheDir on darwin
	mod := filepath.Join(dir, "m")
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("main.go", "package main\n\ntype S struct{ a, b string }\n\nfunc (s S) A() string { return s.a }\n\nfunc main() {}\n")
	analyze := func() (*Analysis, string) {
		var progress bytes.Buffer
		a, err := Analyze(context.Background(), Options{Dir: mod, Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		return a, progress.String()
	}
	a, p := analyze()
	if strings.Contains(p, "unchanged") || len(a.Getters) != 1 {
		t.Fatalf("first analysis: %d getters, progress %q", len(a.Getters), p)
	}
	a, p = analyze()
	if !strings.Contains(p, "sources unchanged") || len(a.Getters) != 1 || a.Getters[0].Pos.Line != 5 {
		t.Fatalf("second analysis: not from the cache or wrong (%+v), progress %q", a.Getters, p)
	}
	write("main.go", "package main\n\ntype S struct{ a, b string }\n\nfunc (s S) A() string { return s.a }\n\nfunc (s S) B() string { return s.b }\n\nfunc main() {}\n")
	a, p = analyze()
	if strings.Contains(p, "unchanged") || len(a.Getters) != 2 {
		t.Fatalf("after a change: %d getters, progress %q", len(a.Getters), p)
	}
}

// TestAnalysisCacheByDirectory: the same pattern from another directory of
// the module is another analysis ("." in cmd/a is not "." in cmd/b), and
// ./... and test analyses are cached too.
func TestAnalysisCacheByDirectory(t *testing.T) {
	dir := t.TempDir()
	if gocache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	mod := filepath.Join(dir, "m")
	for name, text := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"cmd/a/main.go":   "package main\n\ntype S struct{ a string }\n\nfunc (s S) A() string { return s.a }\n\nfunc main() {}\n",
		"cmd/b/main.go":   "package main\n\ntype T struct{ b string }\n\nfunc (t T) B() string { return t.b }\n\nfunc main() {}\n",
		"cmd/b/b_test.go": "package main\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getters := func(opt Options) (string, bool) {
		t.Helper()
		var progress bytes.Buffer
		opt.Progress = &progress
		a, err := Analyze(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range a.Getters {
			names = append(names, g.Name())
		}
		names = append(names, a.TestFiles...)
		return strings.Join(names, " "), strings.Contains(progress.String(), "sources unchanged")
	}
	for i, tc := range []struct {
		dir, pattern string
		tests        bool
		want         string
		cached       bool
	}{
		{"cmd/a", ".", false, "S.A", false},
		{"cmd/b", ".", false, "T.B", false},
		{"cmd/a", ".", false, "S.A", true},
		{"cmd/b", ".", false, "T.B", true},
		{".", "./...", false, "S.A T.B", false},
		{".", "./...", false, "S.A T.B", true},
		{"cmd", "./...", false, "S.A T.B", false},
		{".", "./cmd/b", true, "T.B " + filepath.Join(mod, "cmd/b/b_test.go"), false},
		{".", "./cmd/b", true, "T.B " + filepath.Join(mod, "cmd/b/b_test.go"), true},
	} {
		got, cached := getters(Options{Dir: filepath.Join(mod, tc.dir), Patterns: []string{tc.pattern}, Tests: tc.tests})
		if got != tc.want || cached != tc.cached {
			t.Errorf("%d: %s in %s (tests %v): got %q (cached %v), want %q (cached %v)", i, tc.pattern, tc.dir, tc.tests, got, cached, tc.want, tc.cached)
		}
	}
}

func TestHasLocalReplace(t *testing.T) {
	for _, tc := range []struct {
		gomod string
		want  bool
	}{
		{"module m\n\nrequire a v1.0.0\n", false},
		{"module m\n\nreplace a => ../a\n", true},
		{"module m\n\nreplace (\n\ta v1.0.0 => ./a\n)\n", true},
		{"module m\n\nreplace a => /abs/a\n", true},
		{"module m\n\nreplace a => \"../a b\"\n", true},
		{"module m\n\nreplace a => b.example/a v1.2.0\n", false},
	} {
		if got := hasLocalReplace([]byte(tc.gomod)); got != tc.want {
			t.Errorf("hasLocalReplace(%q) = %v, want %v", tc.gomod, got, tc.want)
		}
	}
}

// TestAnalysisCacheDeps: with -deps, an analysis of a module-cache
// dependency is cached; vendored dependencies are part of the key, so
// editing a vendored file makes the next analysis run again.
func TestAnalysisCacheDeps(t *testing.T) {
	thirdparty.Require(t, "google.golang.org/protobuf")
	if testing.Short() {
		t.Skip("analyzes google.golang.org/protobuf's descriptorpb")
	}
	dir := t.TempDir()
	if gocache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	if modcache, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		t.Setenv("GOMODCACHE", strings.TrimSpace(string(modcache)))
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HOME", dir)
	mod := filepath.Join(dir, "m")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.23\n\nrequire google.golang.org/protobuf v1.36.10\n",
		"main.go": "package main\n\nimport \"google.golang.org/protobuf/types/descriptorpb\"\n\nfunc main() { println((&descriptorpb.FileDescriptorProto{}).GetName()) }\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd := func(args ...string) {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s (needs google.golang.org/protobuf@v1.36.10): %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gocmd("mod", "tidy")
	analyze := func() (int, bool) {
		var progress bytes.Buffer
		a, err := Analyze(context.Background(), Options{Dir: mod, Deps: "google.golang.org/protobuf/types/descriptorpb", Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		return len(a.Getters), strings.Contains(progress.String(), "sources unchanged")
	}
	n1, cached := analyze()
	if cached || n1 < 20 {
		t.Fatalf("first analysis: %d getters, cached %v", n1, cached)
	}
	if n, cached := analyze(); !cached || n != n1 {
		t.Fatalf("second analysis: %d getters, cached %v; want %d from the cache", n, cached, n1)
	}

	gocmd("mod", "vendor")
	if n, cached := analyze(); cached || n != n1 {
		t.Fatalf("first analysis with vendor/: %d getters (want %d), cached %v", n, n1, cached)
	}
	if _, cached := analyze(); !cached {
		t.Fatalf("second analysis with vendor/ did not come from the cache")
	}
	vendored := filepath.Join(mod, "vendor", "google.golang.org", "protobuf", "types", "descriptorpb", "descriptor.pb.go")
	src, err := os.ReadFile(vendored)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vendored, append(src, "\n// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, cached := analyze(); cached {
		t.Fatalf("analysis after editing a vendored file came from the cache")
	}
}
