package instrument

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimeFilesCompile builds the runtime exactly as instrumented
// programs get it, in a module whose go directive is 1.18 (so newer
// language features are rejected), or older (the files then raise their
// own language version), for several systems and architectures.
func TestRuntimeFilesCompile(t *testing.T) {
	for _, goVersion := range []string{"1.18", "1.12"} {
		t.Run("go"+goVersion, func(t *testing.T) { testRuntimeFilesCompile(t, goVersion) })
	}
}

func testRuntimeFilesCompile(t *testing.T, goVersion string) {
	files, err := runtimeFilesFor("go" + goVersion)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["runtime.go"]; !ok || len(files) < 5 {
		t.Fatalf("runtime files: %v", len(files))
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "suncatrt")
	os.MkdirAll(pkg, 0o755)
	for name, data := range files {
		if strings.HasSuffix(name, ".s") {
			t.Errorf("%s: overlay-only packages cannot have assembly", name)
		}
		if err := os.WriteFile(filepath.Join(pkg, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/old\n\ngo "+goVersion+"\n"), 0o644)
	for _, target := range []string{"linux/amd64", "linux/arm64", "darwin/arm64", "windows/amd64"} {
		goos, goarch, _ := strings.Cut(target, "/")
		cmd := exec.Command("go", "vet", "./suncatrt")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", target, err, out)
		}
	}
}
