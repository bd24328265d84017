package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Dependencies (-deps) reach the build in one of two ways.
//
// A dependency whose files are outside the module cache (vendored into
// vendor/, or replaced by a local directory) is overlaid in place, like
// the main module's files: its stacks name its own files.
//
// A dependency in the module cache cannot be overlaid (the go command
// refuses overlays beneath GOMODCACHE). Such a module is copied into
// suncat's cache, its getter files rewritten there, and the build is
// redirected to the copy by a `replace` in a temporary go.mod (-modfile)
// or, inside a workspace, a temporary go.work (GOWORK); the user's go.mod,
// go.sum and go.work are not touched. Every Go file of a copy starts with
// a /*line original:N:C*/ directive before its package clause, on the same
// line, so the compiler records the original (module cache) paths and
// stacks and the getter table name them. A copy's directory is named by
// the hash of what is in it (module, version, rewritten files), so an
// unchanged rebuild reuses it and the go build cache hits.

// depCopyVersion changes whenever the layout of a copy would.
const depCopyVersion = "suncat-depcopy-4"

// A depCopy is a module-cache dependency built from a rewritten copy.
type depCopy struct {
	mod   DepModule
	files map[string][]byte // rewritten files, by path relative to mod.Dir
	dst   string            // the copy, once materialized
}

// goEnv returns the values of go env variables, as seen from dir, in one
// go command.
func goEnv(ctx context.Context, dir string, names ...string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"env"}, names...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env %s: %v", strings.Join(names, " "), err)
	}
	vals := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(vals) != len(names) {
		return nil, fmt.Errorf("go env %s: got %q", strings.Join(names, " "), out)
	}
	return vals, nil
}

// goDirs are the go command's settings that a build needs: where the
// module cache is (it cannot be overlaid; -deps copies from it), the
// workspace (-deps), and the toolchain (the testing package's files).
type goDirs struct {
	modcache string // GOMODCACHE
	gowork   string // GOWORK: the workspace file, "" or "off" outside one
	goroot   string // GOROOT
}

// readGoDirs asks the go command, in one call, as seen from dir.
func readGoDirs(ctx context.Context, dir string) (goDirs, error) {
	v, err := goEnv(ctx, dir, "GOMODCACHE", "GOWORK", "GOROOT")
	if err != nil {
		return goDirs{}, err
	}
	return goDirs{modcache: v[0], gowork: v[1], goroot: v[2]}, nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// planDeps returns a copy for each dependency module of a that lives in
// the module cache; the others are overlaid in place.
func planDeps(gd goDirs, a *Analysis) []*depCopy {
	modcache := gd.modcache
	var out []*depCopy
	for _, m := range a.DepModules {
		if m.Dir != "" && within(m.Dir, modcache) {
			out = append(out, &depCopy{mod: m, files: map[string][]byte{}})
		}
	}
	return out
}

// copyFor returns the copy that holds file f, if f is in a copied module.
func copyFor(copies []*depCopy, f string) (*depCopy, string, bool) {
	for _, d := range copies {
		if within(f, d.mod.Dir) {
			rel, _ := filepath.Rel(d.mod.Dir, f)
			return d, rel, true
		}
	}
	return nil, "", false
}

// materialize makes sure the copy of d exists in suncat's cache, named by
// the hash of its content, and sets d.dst. A copy is written to a
// temporary directory and renamed into place, so concurrent builds never
// see half a copy.
func (d *depCopy) materialize(progress io.Writer) error {
	root, err := cacheDir("deps")
	if err != nil {
		return err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", depCopyVersion, d.mod.Path, d.mod.Version, d.mod.Dir)
	names := make([]string, 0, len(d.files))
	for rel := range d.files {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		sum := sha256.Sum256(d.files[rel])
		fmt.Fprintf(h, "%s\x00%x\x00", rel, sum)
	}
	d.dst = filepath.Join(root, hex.EncodeToString(h.Sum(nil))[:24])
	if _, err := os.Stat(d.dst); err == nil {
		now := time.Now()
		os.Chtimes(d.dst, now, now) // recently used; see pruneDeps
		return nil
	}
	if progress != nil {
		fmt.Fprintf(progress, "suncat: copying %s@%s out of the module cache (-deps)\n", d.mod.Path, d.mod.Version)
	}
	tmp, err := os.MkdirTemp(root, "tmp-")
	if err != nil {
		return err
	}
	if err := d.write(tmp); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("copying %s: %v", d.mod.Path, err)
	}
	if err := os.Rename(tmp, d.dst); err != nil {
		os.RemoveAll(tmp)
		if _, err2 := os.Stat(d.dst); err2 != nil {
			return err // no other build put it there either
		}
	}
	return nil
}

// write copies the module into dir: every Go file with its line
// directive, the rewritten files as rewritten.
func (d *depCopy) write(dir string) error {
	err := filepath.WalkDir(d.mod.Dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(d.mod.Dir, path)
		dst := filepath.Join(dir, rel)
		if e.IsDir() {
			if path != d.mod.Dir && (e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(dst, 0o700)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		data, ok := d.files[rel]
		if !ok {
			if data, err = os.ReadFile(path); err != nil {
				return err
			}
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			data = withLineDirective(path, data)
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	// A replacement must have a go.mod; old modules may lack one.
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if os.IsNotExist(err) {
		data, err = []byte("module "+d.mod.Path+"\n"), nil
	}
	if err != nil {
		return err
	}
	// Its go line stays as it is: the rewritten files that need a newer
	// language say so themselves (language.go).
	return os.WriteFile(gomod, data, 0o644)
}

// pruneDeps removes copies not used for a while, and temporary
// directories left by interrupted builds.
func pruneDeps() {
	root, err := cacheDir("deps")
	if err != nil {
		return
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		age := time.Since(info.ModTime())
		if (strings.HasPrefix(e.Name(), "tmp-") && age > 24*time.Hour) || age > 14*24*time.Hour {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// withLineDirective puts /*line path:L:C*/ just before the package clause,
// on its line, so positions keep pointing at the original file. L and C
// are where the clause is in the file, not where a //line directive of
// the file's own puts it (a Ragel-generated file starts with
// //line x.rl:1, which has no column: /*line path:1:0*/ did not build).
func withLineDirective(path string, src []byte) []byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.PackageClauseOnly)
	if err != nil {
		return src
	}
	pos := fset.PositionFor(f.Package, false)
	var b bytes.Buffer
	b.Write(src[:pos.Offset])
	fmt.Fprintf(&b, "/*line %s:%d:%d*/", path, pos.Line, pos.Column)
	b.Write(src[pos.Offset:])
	return b.Bytes()
}

// redirect returns the extra go build arguments and environment that
// replace the copied modules with their copies: a temporary go.mod in
// module mode, a temporary go.work in a workspace.
func redirect(ctx context.Context, gd goDirs, work, dir string, a *Analysis, copies []*depCopy) (args, env []string, err error) {
	gowork := gd.gowork
	if gowork != "" && gowork != "off" {
		w, err := tempWorkspace(ctx, work, dir, gowork, copies)
		if err != nil {
			return nil, nil, err
		}
		return nil, []string{"GOWORK=" + w}, nil
	}
	modArgs, err := copyModFile(a.ModuleDir, work)
	if err != nil {
		return nil, nil, err
	}
	modfile := modArgs[len(modArgs)-1]
	// The replacements are appended to the copy as text; only a module
	// the user's go.mod replaces already needs go mod edit to drop that.
	var drop []string
	var lines strings.Builder
	lines.WriteString("\n// Added by suncat -deps.\n")
	for _, d := range copies {
		if d.mod.Replaced {
			drop = append(drop, "-dropreplace", d.mod.Path, "-dropreplace", d.mod.Path+"@"+d.mod.Version)
		}
		fmt.Fprintf(&lines, "replace %s => %s\n", strconv.Quote(d.mod.Path), strconv.Quote(d.dst))
	}
	if len(drop) > 0 {
		cmd := exec.CommandContext(ctx, "go", append(append([]string{"mod", "edit"}, drop...), modfile)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, nil, fmt.Errorf("go mod edit: %v\n%s", err, out)
		}
	}
	f, err := os.OpenFile(modfile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	_, err = f.WriteString(lines.String())
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		return nil, nil, err
	}
	return modArgs, nil, nil
}

// goWork is the part of `go work edit -json` that tempWorkspace needs.
type goWork struct {
	Use     []struct{ DiskPath string }
	Replace []struct {
		Old, New struct{ Path, Version string }
	}
}

// tempWorkspace writes a copy of the workspace file gowork into work,
// with its relative paths made absolute and the copied modules replaced,
// and returns its path (for GOWORK). The copy keeps everything else of
// the original (go, toolchain and godebug lines) as it is edited with
// go work edit; go.work.sum comes along.
func tempWorkspace(ctx context.Context, work, dir, gowork string, copies []*depCopy) (string, error) {
	data, err := os.ReadFile(gowork)
	if err != nil {
		return "", err
	}
	tmp := filepath.Join(work, "go.work")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return "", err
	}
	if sum, err := os.ReadFile(gowork + ".sum"); err == nil {
		if err := os.WriteFile(tmp+".sum", sum, 0o644); err != nil {
			return "", err
		}
	}
	gowk := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "go", append(append([]string{"work", "edit"}, args...), tmp)...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = strings.TrimSpace(string(ee.Stderr))
			}
			return nil, fmt.Errorf("go work edit on a copy of %s: %v %s", gowork, err, msg)
		}
		return out, nil
	}
	out, err := gowk("-json")
	if err != nil {
		return "", err
	}
	var w goWork
	if err := json.Unmarshal(out, &w); err != nil {
		return "", fmt.Errorf("go work edit -json %s: %v", gowork, err)
	}
	base := filepath.Dir(gowork)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, filepath.FromSlash(p))
	}
	local := func(p string) bool {
		return filepath.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")
	}
	var edits []string
	for _, u := range w.Use {
		if !filepath.IsAbs(u.DiskPath) {
			edits = append(edits, "-dropuse="+u.DiskPath, "-use="+abs(u.DiskPath))
		}
	}
	copied := map[string]bool{}
	for _, d := range copies {
		copied[d.mod.Path] = true
	}
	for _, r := range w.Replace {
		old := r.Old.Path
		if r.Old.Version != "" {
			old += "@" + r.Old.Version
		}
		switch {
		case copied[r.Old.Path]:
			edits = append(edits, "-dropreplace="+old)
		case local(r.New.Path) && !filepath.IsAbs(r.New.Path):
			edits = append(edits, "-dropreplace="+old, "-replace="+old+"="+abs(r.New.Path))
		}
	}
	for _, d := range copies {
		edits = append(edits, "-replace="+d.mod.Path+"="+d.dst)
	}
	if _, err := gowk(edits...); err != nil {
		return "", err
	}
	return tmp, nil
}
