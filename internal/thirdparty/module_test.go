package thirdparty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTreeSum: a changed byte, a new file and a removed one each change
// the sum; the same tree gives the same sum.
func TestTreeSum(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n")
	write("a/a.go", "package a\n")
	sums := []string{TreeSum(t, dir)}
	if again := TreeSum(t, dir); again != sums[0] || strings.Count(again, "\n") != 2 {
		t.Fatalf("the same tree: %q, then %q", sums[0], again)
	}
	write("a/a.go", "package b\n")
	sums = append(sums, TreeSum(t, dir))
	write("a/b.go", "")
	sums = append(sums, TreeSum(t, dir))
	if err := os.Remove(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	sums = append(sums, TreeSum(t, dir))
	for i := 1; i < len(sums); i++ {
		if sums[i] == sums[i-1] {
			t.Errorf("change %d left the sum as it was: %q", i, sums[i])
		}
	}
}

// TestCopy: a module from the proxy is copied whole and writable.
func TestCopy(t *testing.T) {
	Require(t, "github.com/rivo/uniseg@v0.2.0")
	dir := Copy(t, "github.com/rivo/uniseg@v0.2.0")
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(data), "module github.com/rivo/uniseg") {
		t.Fatalf("go.mod of the copy: %v %q", err, data)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), append(data, '\n'), 0o644); err != nil {
		t.Errorf("the copy is not writable: %v", err)
	}
}
