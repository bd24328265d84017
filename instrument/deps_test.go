package instrument

import (
	"context"
	"encoding/json"
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

// TestCopyRaisesGoLine: a copy of a dependency whose reads or calls are
// recorded says go 1.18 when the module says less or has no go.mod
// (sahilm/fuzzy, under gum in doc/cases.md, has none: go 1.16, and the
// rewrite's generic calls did not compile); a copy that only has getters
// keeps the module's go line, and a newer line is kept.
func TestCopyRaisesGoLine(t *testing.T) {
	for _, tc := range []struct {
		name, gomod string // "" for no go.mod
		sites       bool
		want        string
	}{
		{"no go.mod", "", true, "module example.com/old\n\ngo 1.18\n"},
		{"go 1.13", "module example.com/old\n\ngo 1.13 // old\n\nrequire example.com/x v1.0.0\n", true, "module example.com/old\n\ngo 1.18\n\nrequire example.com/x v1.0.0\n"},
		{"no go line", "module example.com/old", true, "module example.com/old\n\ngo 1.18\n"},
		{"go 1.21", "module example.com/old\n\ngo 1.21\n", true, "module example.com/old\n\ngo 1.21\n"},
		{"getters only", "", false, "module example.com/old\n"},
		{"getters only, go 1.13", "module example.com/old\n\ngo 1.13\n", false, "module example.com/old\n\ngo 1.13\n"},
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
			d := &depCopy{mod: DepModule{Path: "example.com/old", Version: "v1.0.0", Dir: src}, files: map[string][]byte{"old.go": []byte("package old\n")}, sites: tc.sites}
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

// TestSitesLanguageCopies: a site in a copied dependency is not refused
// for its module's language (the copy's go.mod is raised); a site in the
// main module that says go 1.16 is.
func TestSitesLanguageCopies(t *testing.T) {
	dir := t.TempDir()
	dep, app := filepath.Join(dir, "dep"), filepath.Join(dir, "app")
	for name, text := range map[string]string{"dep/go.mod": "module example.com/dep\n\ngo 1.16\n", "app/go.mod": "module example.com/app\n\ngo 1.16\n"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copies := []*depCopy{{mod: DepModule{Path: "example.com/dep", Dir: dep}}}
	if err := sitesLanguage([]Site{{File: filepath.Join(dep, "a.go")}}, copies); err != nil {
		t.Errorf("a copied dependency's site: %v", err)
	}
	if err := sitesLanguage([]Site{{File: filepath.Join(app, "a.go")}}, copies); err == nil || !strings.Contains(err.Error(), "need go 1.18 or later") {
		t.Errorf("the main module's site at go 1.16: %v, want the language error", err)
	}
}
