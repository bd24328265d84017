package instrument

import (
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestTempWorkspace checks the go.work that -deps uses inside a workspace:
// the same modules, toolchain settings and replacements as the user's, with
// relative paths made absolute, plus the copies' replacements (which win
// over a user's replacement of the same module); go.work.sum comes along.
func TestTempWorkspace(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	for name, text := range map[string]string{
		"go.work":           "go 1.23\n\ngodebug panicnil=1\n\nuse (\n\t./app\n\t\"../lib dir\"\n)\n\nreplace example.com/x => ../x\nreplace example.com/y v1.0.0 => example.com/z v1.1.0\nreplace example.com/c => ./old\n",
		"go.work.sum":       "example.com/z v1.1.0 h1:abc=\n",
		"app/go.mod":        "module example.com/app\n\ngo 1.23\n",
		"../lib dir/go.mod": "module example.com/lib\n\ngo 1.23\n",
	} {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	work := t.TempDir()
	copies := []*depCopy{{mod: DepModule{Path: "example.com/c", Version: "v1.2.3"}, dst: filepath.Join(dir, "copy of c")}}
	tmp, err := tempWorkspace(context.Background(), work, filepath.Join(ws, "app"), filepath.Join(ws, "go.work"), copies)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "work", "edit", "-json", tmp).Output()
	if err != nil {
		t.Fatalf("go work edit -json on the generated go.work: %v", err)
	}
	var w struct {
		Go      string
		Use     []struct{ DiskPath string }
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatal(err)
	}
	var uses, replaces []string
	for _, u := range w.Use {
		uses = append(uses, u.DiskPath)
	}
	for _, r := range w.Replace {
		replaces = append(replaces, strings.TrimSpace(r.Old.Path+" "+r.Old.Version)+" => "+strings.TrimSpace(r.New.Path+" "+r.New.Version))
	}
	sort.Strings(uses)
	sort.Strings(replaces)
	got := strings.Join(append(append([]string{w.Go}, uses...), replaces...), "\n")
	want := strings.Join([]string{
		"1.23",
		filepath.Join(dir, "lib dir"),
		filepath.Join(ws, "app"),
		"example.com/c => " + filepath.Join(dir, "copy of c"),
		"example.com/x => " + filepath.Join(dir, "x"),
		"example.com/y v1.0.0 => example.com/z v1.1.0",
	}, "\n")
	if got != want {
		t.Errorf("generated go.work:\n%s\nwant:\n%s", got, want)
	}
	if text, err := os.ReadFile(tmp); err != nil || !strings.Contains(string(text), "godebug panicnil=1") {
		t.Errorf("godebug line lost: %v\n%s", err, text)
	}
	if sum, err := os.ReadFile(tmp + ".sum"); err != nil || !strings.Contains(string(sum), "example.com/z") {
		t.Errorf("go.work.sum not copied: %v %q", err, sum)
	}
}

// TestCopyKeepsGoLine: a copy of a dependency keeps the module's go line
// (its rewritten files raise their own language, language.go), and a
// module without a go.mod gets one that says nothing more than its path.
func TestCopyKeepsGoLine(t *testing.T) {
	for _, tc := range []struct {
		name, gomod string // "" for no go.mod
		want        string
	}{
		{"no go.mod", "", "module example.com/old\n"},
		{"go 1.13", "module example.com/old\n\ngo 1.13 // old\n\nrequire example.com/x v1.0.0\n", "module example.com/old\n\ngo 1.13 // old\n\nrequire example.com/x v1.0.0\n"},
		{"no go line", "module example.com/old", "module example.com/old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := t.TempDir()
			if err := os.WriteFile(filepath.Join(src, "old.go"), []byte("package old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.gomod != "" {
				if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte(tc.gomod), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d := &depCopy{mod: DepModule{Path: "example.com/old", Version: "v1.0.0", Dir: src}, files: map[string][]byte{"old.go": []byte("package old\n")}}
			dst := t.TempDir()
			if err := d.write(dst); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dst, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("go.mod of the copy:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// The directive names where the package clause is in the file, whatever
// a //line directive of the file's own says (go-textseg's Ragel output
// starts with //line x.rl:1, whose column is unknown), and the file
// still parses with its positions mapped back to the original.
func TestWithLineDirective(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package p\n\nvar X = 1\n", "/*line /orig/a.go:1:1*/package p\n"},
		{"//line grapheme.rl:1\npackage p\n\nvar X = 1\n", "/*line /orig/a.go:2:1*/package p\n"},
		{"// Code generated.\n\n  package p\n", "/*line /orig/a.go:3:3*/package p\n"},
	} {
		out := withLineDirective("/orig/a.go", []byte(tc.src))
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("%q: got\n%s\nwant a line %q", tc.src, out, tc.want)
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "/copy/a.go", out, 0)
		if err != nil {
			t.Errorf("%q: the result does not parse: %v", tc.src, err)
			continue
		}
		if p := fset.Position(f.Package); p.Filename != "/orig/a.go" || p.Column == 0 {
			t.Errorf("%q: the package clause maps to %v", tc.src, p)
		}
	}
}
