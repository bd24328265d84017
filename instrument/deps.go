package instrument

import (
	"bytes"
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Dependencies (-deps) live in the module cache, which the go command does
// not let overlays replace. So each dependency module with getters is
// copied into the work directory, its files are rewritten there, and a
// temporary go.mod (-modfile; the user's go.mod is not touched) replaces
// the module with the copy. Every Go file of a copy starts with a
// /*line original:N:C*/ directive before its package clause, on the same
// line, so stacks and the getter table name the original files.

type depCopy struct {
	mod DepModule
	dst string
}

func depCopies(work string, a *Analysis) []depCopy {
	var out []depCopy
	for i, m := range a.DepModules {
		out = append(out, depCopy{m, filepath.Join(work, "deps", fmt.Sprintf("%02d", i))})
	}
	return out
}

// depTarget returns where file f of a dependency goes in its copy.
func depTarget(deps []depCopy, f string) (string, bool) {
	for _, d := range deps {
		if rel, err := filepath.Rel(d.mod.Dir, f); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join(d.dst, rel), true
		}
	}
	return "", false
}

// copyDeps copies every dependency module into the work directory, each
// Go file with its line directive.
func copyDeps(deps []depCopy) error {
	for _, d := range deps {
		err := filepath.WalkDir(d.mod.Dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(d.mod.Dir, path)
			dst := filepath.Join(d.dst, rel)
			if e.IsDir() {
				if path != d.mod.Dir && (e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) {
					return filepath.SkipDir
				}
				return os.MkdirAll(dst, 0o755)
			}
			if _, err := os.Stat(dst); err == nil {
				return nil // already written (rewritten)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
				data = withLineDirective(path, data)
			}
			return os.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			return fmt.Errorf("copying %s: %v", d.mod.Path, err)
		}
		// A replacement must have a go.mod; old modules may lack one.
		gomod := filepath.Join(d.dst, "go.mod")
		if _, err := os.Stat(gomod); os.IsNotExist(err) {
			if err := os.WriteFile(gomod, []byte("module "+d.mod.Path+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// withLineDirective puts /*line path:L:C*/ just before the package clause,
// on its line, so positions keep pointing at the original file.
func withLineDirective(path string, src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.PackageClauseOnly)
	if err != nil {
		return src
	}
	pos := fset.Position(f.Package)
	var b bytes.Buffer
	b.Write(src[:pos.Offset])
	fmt.Fprintf(&b, "/*line %s:%d:%d*/", path, pos.Line, pos.Column)
	b.Write(src[pos.Offset:])
	return b.Bytes()
}

// writeDepFile rewrites the getters of dependency file f into dst.
func writeDepFile(f, dst string, getters []Getter, rtImport string) error {
	src, err := os.ReadFile(f)
	if err != nil {
		return err
	}
	out, err := Rewrite(f, src, getters, rtImport)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, withLineDirective(f, out), 0o644)
}

// redirectDeps copies the dependencies and writes the temporary go.mod
// that replaces them with their copies; it returns its path.
func redirectDeps(ctx context.Context, work string, a *Analysis, dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(a.ModuleDir, "vendor")); err == nil {
		return "", fmt.Errorf("-deps does not work with a vendor directory (the vendored copies can be edited in place)")
	}
	if w := os.Getenv("GOWORK"); w != "off" {
		out, _ := exec.CommandContext(ctx, "go", "env", "GOWORK").Output()
		if strings.TrimSpace(string(out)) != "" {
			return "", fmt.Errorf("-deps does not work inside a go.work workspace (add the module to the workspace instead)")
		}
	}
	deps := depCopies(work, a)
	if err := copyDeps(deps); err != nil {
		return "", err
	}
	modfile := filepath.Join(work, "go.mod")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(a.ModuleDir, name))
		if err != nil && !(name == "go.sum" && os.IsNotExist(err)) {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			return "", err
		}
	}
	args := []string{"mod", "edit", "-modfile", modfile}
	for _, d := range deps {
		if d.mod.Replaced {
			args = append(args, "-dropreplace", d.mod.Path, "-dropreplace", d.mod.Path+"@"+d.mod.Version)
		}
		args = append(args, "-replace", d.mod.Path+"="+d.dst)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod edit: %v\n%s", err, out)
	}
	return modfile, nil
}
