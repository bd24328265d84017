package thirdparty

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Copy downloads module@version from the module proxy (go mod download)
// and returns a writable copy of it, in a temporary directory of tb's:
// the module cache is read-only and cannot be overlaid.
func Copy(tb testing.TB, module string) string {
	tb.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	var info struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &info)
	}
	if err != nil || info.Dir == "" {
		msg := strings.TrimSpace(info.Error)
		if msg == "" && err != nil {
			msg = err.Error()
		}
		tb.Fatalf("go mod download %s: %s", module, msg)
	}
	dst := filepath.Join(tb.TempDir(), "src")
	err = filepath.WalkDir(info.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(info.Dir, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dst
}

// TreeSum lists the files under dir with the hashes of their contents, a
// line each, to tell whether anything was added, removed or changed.
func TreeSum(tb testing.TB, dir string) string {
	tb.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x %s\n", sha256.Sum256(data), path)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b.String()
}
