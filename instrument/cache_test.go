package instrument

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
