package instrument

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchTesting patches this toolchain's testing package: every
// required edit and every optional edit whose file exists is applied once,
// the files still parse, and no line of the original moves.
func TestPatchTesting(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	files, err := patchTesting(goroot)
	if err != nil {
		t.Fatalf("this toolchain's testing package cannot be hooked: %v", err)
	}
	for _, e := range testingEdits {
		orig, err := os.ReadFile(filepath.Join(goroot, "src", "testing", e.file))
		if os.IsNotExist(err) && !e.required {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, ok := files[e.file]
		if !ok {
			t.Errorf("%s: not patched", e.file)
			continue
		}
		want := 0 // edits of this file inserting the same code
		for _, o := range testingEdits {
			if o.file == e.file && o.code == e.code {
				want++
			}
		}
		if n := bytes.Count(got, []byte(e.code)); n != want {
			t.Errorf("%s: %q inserted %d times, want %d", e.file, e.code, n, want)
		}
		// The original's lines keep their numbers: patched line i starts
		// like original line i (the edits only add to lines).
		ol, gl := strings.Split(string(orig), "\n"), strings.Split(string(got), "\n")
		if len(gl) < len(ol) {
			t.Fatalf("%s: %d lines became %d", e.file, len(ol), len(gl))
		}
		for i := range ol {
			if !strings.HasPrefix(gl[i], ol[i]) && !strings.HasSuffix(gl[i], ol[i]) && !strings.Contains(gl[i], strings.TrimSpace(ol[i])) {
				t.Errorf("%s:%d: %q became %q", e.file, i+1, ol[i], gl[i])
				break
			}
		}
	}
	for name, src := range files {
		if _, err := parser.ParseFile(token.NewFileSet(), name, src, 0); err != nil {
			t.Errorf("patched %s does not parse: %v", name, err)
		}
	}
	if !bytes.Contains(files["testing.go"], []byte("var "+hookVar+" func(name string)")) {
		t.Error("testing.go: no hook variable")
	}
}

// TestPatchTestingUnknown: a testing package without the expected shape is
// refused (suncat test then rewrites the test files instead).
func TestPatchTestingUnknown(t *testing.T) {
	goroot := t.TempDir()
	dir := filepath.Join(goroot, "src", "testing")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package testing\n\nfunc tRunner(t *T, fn func(t *T)) {\n}\n\nfunc (t *T) Run(name string, f func(t *T)) bool {\n\treturn true\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "testing.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := patchTesting(goroot); err == nil || !strings.Contains(err.Error(), "return !t.failed") {
		t.Errorf("err = %v, want the missing anchor named", err)
	}
	if _, err := patchTesting(t.TempDir()); err == nil {
		t.Error("no error for a GOROOT without a testing package")
	}
}

func TestInsertAt(t *testing.T) {
	src := []byte("func a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n\treturn z\n}\n")
	for _, tc := range []struct {
		e    testingEdit
		want string
		ok   bool
	}{
		{testingEdit{anchor: "func a() {", code: " L();"}, "func a() { L();\n\tx()\n}\n\nfunc b() {\n\ty()\n\treturn z\n}\n", true},
		{testingEdit{within: "func b() {", anchor: "return z\n}", before: true, code: "L(); "}, "func a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n\tL(); return z\n}\n", true},
		{testingEdit{within: "func a() {", atEnd: true, code: "L(); "}, "func a() {\n\tx()\nL(); }\n\nfunc b() {\n\ty()\n\treturn z\n}\n", true},
		// The anchor must be inside the function named.
		{testingEdit{within: "func a() {", anchor: "y()", code: "L()"}, "", false},
		{testingEdit{within: "func c() {", anchor: "x()", code: "L()"}, "", false},
	} {
		got, ok := insertAt(src, tc.e)
		if ok != tc.ok || ok && string(got) != tc.want {
			t.Errorf("%+v: got %q (%v), want %q (%v)", tc.e, got, ok, tc.want, tc.ok)
		}
	}
}
