package logrt

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompilesUnderGo118 builds logrt's non-test, non-host_ files in a
// module whose go directive is 1.18, so newer language features are
// rejected, for several systems and architectures. The copy
// that instrumented programs get is checked by instrument's
// TestRuntimeFilesCompile.
func TestCompilesUnderGo118(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "suncatrt")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	copied := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "host_") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
		copied++
	}
	if copied < 5 {
		t.Fatalf("copied only %d files", copied)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/old\n\ngo 1.18\n"), 0o644)
	for _, target := range []string{"linux/amd64", "linux/arm64", "darwin/arm64", "windows/amd64", "linux/386"} {
		goos, goarch, _ := strings.Cut(target, "/")
		cmd := exec.Command("go", "vet", "./suncatrt")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", target, err, out)
		}
	}
	// What the runtime links into a program: no package net (and so no
	// cgo resolver), whatever the program itself uses.
	cmd := exec.Command("go", "list", "-deps", "./suncatrt")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net" || dep == "runtime/cgo" || dep == "os/signal" {
			t.Errorf("the runtime depends on %s", dep)
		}
	}
}
