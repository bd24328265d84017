package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt"
)

// BuildOptions control an instrumented build.
type BuildOptions struct {
	Dir        string   // the user's working directory
	Package    string   // the main package to build; default "."
	Output     string   // the binary to write; default: in the suncat cache
	BuildFlags []string // passed to go build and go/packages (-tags ...)
	Funcs      bool
	Deps       string // also instrument dependency packages matching these patterns
	Match      *regexp.Regexp
	Skip       *regexp.Regexp
	Progress   io.Writer

	// Delays slow the getters with these ids down (suncat delay).
	Delays []uint32
	Delay  time.Duration
	Spin   bool
}

// A BuildResult says what was built.
type BuildResult struct {
	Analysis *Analysis
	Output   string // the instrumented binary
}

// RuntimeDir is the directory, relative to the main module's root, where
// the runtime appears to the build (as overlays only; nothing is written
// there).
const RuntimeDir = "suncatrt"

// Build analyzes the program and builds it instrumented.
func Build(ctx context.Context, opt BuildOptions) (*BuildResult, error) {
	pkg := opt.Package
	if pkg == "" {
		pkg = "."
	}
	out := opt.Output
	if out != "" && !filepath.IsAbs(out) {
		out = filepath.Join(opt.Dir, out)
	}
	named := pkg
	opt.Dir, pkg = normalize(opt.Dir, pkg)
	opt.BuildFlags = guardModFlags(opt.Dir, opt.BuildFlags)
	a, err := Analyze(ctx, Options{
		Dir: opt.Dir, Patterns: []string{pkg}, BuildFlags: opt.BuildFlags,
		Funcs: opt.Funcs, Match: opt.Match, Skip: opt.Skip, Progress: opt.Progress, Deps: opt.Deps,
	})
	if err != nil {
		return nil, err
	}
	if len(a.Commands) > 1 {
		return nil, fmt.Errorf("%s matches %d commands (%s); instrument one at a time", named, len(a.Commands), strings.Join(a.Commands, ", "))
	}
	if len(a.Commands) != 1 {
		return nil, fmt.Errorf("%s is not a main package (suncat builds programs; to study a library, instrument a program or test that uses it)", named)
	}
	work, err := workDir(a.ModuleDir)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	var gd goDirs
	var copies []*depCopy
	if len(a.DepModules) > 0 {
		if gd, err = readGoDirs(ctx, opt.Dir); err != nil {
			return nil, err
		}
		copies = planDeps(gd, a)
	}
	overlay, err := writeOverlay(work, a, opt, copies)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		out = filepath.Join(out, path.Base(a.Commands[0])) // as go build -o dir does
	}
	if out == "" {
		bin, err := cacheDir("bin", dirHash(a.ModuleDir))
		if err != nil {
			return nil, err
		}
		out = filepath.Join(bin, path.Base(a.Commands[0]))
	}
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "suncat: building %s with %d instrumented getter(s)\n", a.Commands[0], len(a.Getters))
	}
	args := []string{"build", "-overlay", overlay, "-o", out}
	var env []string
	if len(copies) > 0 {
		pruneDeps()
		for _, d := range copies {
			if err := d.materialize(opt.Progress); err != nil {
				return nil, err
			}
		}
		more, moreEnv, err := redirect(ctx, gd, work, opt.Dir, a, copies)
		if err != nil {
			return nil, err
		}
		args, env = append(args, more...), moreEnv
	}
	args = append(args, opt.BuildFlags...)
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = opt.Dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build failed:\n%s", strings.TrimSpace(stderr.String()))
	}
	return &BuildResult{Analysis: a, Output: out}, nil
}

// writeOverlay writes the rewritten files, the runtime and the overlay
// description into work, and returns the description's path. Rewritten
// files of copied dependency modules go into their copy (see deps.go)
// instead of the overlay.
func writeOverlay(work string, a *Analysis, opt BuildOptions, copies []*depCopy) (string, error) {
	replace := map[string]string{}
	rtImport := a.ModulePath + "/" + RuntimeDir
	byFile := map[string][]Getter{}
	for _, g := range a.Getters {
		byFile[g.Pos.Filename] = append(byFile[g.Pos.Filename], g)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		out, err := Rewrite(f, src, byFile[f], rtImport)
		if err != nil {
			return "", err
		}
		if d, rel, ok := copyFor(copies, f); ok {
			d.files[rel] = out
			continue
		}
		dst := filepath.Join(work, fmt.Sprintf("src%03d_%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return "", err
		}
		replace[f] = dst
	}
	rtDir := filepath.Join(a.ModuleDir, filepath.FromSlash(RuntimeDir))
	if _, err := os.Stat(rtDir); err == nil {
		return "", fmt.Errorf("%s exists in your module; suncat needs that directory for its runtime", rtDir)
	}
	rtFiles, err := RuntimeFiles()
	if err != nil {
		return "", err
	}
	rtWork := filepath.Join(work, "rt")
	if err := os.MkdirAll(rtWork, 0o755); err != nil {
		return "", err
	}
	for name, data := range rtFiles {
		dst := filepath.Join(rtWork, name)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(rtDir, name)] = dst
	}
	table := filepath.Join(rtWork, "zz_suncat_table.go")
	if err := os.WriteFile(table, []byte(tableSource(a, opt)), 0o644); err != nil {
		return "", err
	}
	replace[filepath.Join(rtDir, "zz_suncat_table.go")] = table
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	ovl := filepath.Join(work, "overlay.json")
	return ovl, os.WriteFile(ovl, data, 0o644)
}

// RuntimeFiles returns the runtime's files as they are compiled into
// instrumented programs: logrt's non-test, non-host_ files. The go command
// cannot assemble files of a package that exists only as overlays (the
// assembler runs in the package's directory), so the runtime goes without
// its frame-pointer unwinder: fp_other.go stands in on every architecture.
func RuntimeFiles() (map[string][]byte, error) {
	entries, err := fs.ReadDir(logrt.Sources, ".")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "host_") ||
			strings.HasSuffix(name, ".s") || name == "fp_fast.go" {
			continue
		}
		data, err := fs.ReadFile(logrt.Sources, name)
		if err != nil {
			return nil, err
		}
		if name == "fp_other.go" {
			data = dropBuildLine(data)
		}
		files[name] = data
	}
	return files, nil
}

// dropBuildLine blanks a file's //go:build line (keeping the line count).
func dropBuildLine(src []byte) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "//go:build ") {
			lines[i] = "\n"
			break
		}
	}
	return []byte(strings.Join(lines, ""))
}

// tableSource generates the runtime file that passes the getter table
// (and the delays, if any) to logrt.
func tableSource(a *Analysis, opt BuildOptions) string {
	var b strings.Builder
	b.WriteString("// Code generated by suncat. DO NOT EDIT.\n\npackage logrt\n\n")
	if len(opt.Delays) > 0 {
		b.WriteString("import \"time\"\n\n")
	}
	b.WriteString("func init() {\n\tSetGetters([]Getter{\n")
	for _, g := range a.Getters {
		fmt.Fprintf(&b, "\t\t{ID: %d, Package: %q, Receiver: %q, Method: %q, File: %q, Line: %d, Field: %q},\n",
			g.ID, g.PkgPath, g.Receiver, g.Method, g.Pos.Filename, g.Pos.Line, g.Field)
	}
	b.WriteString("\t})\n")
	if len(opt.Delays) > 0 {
		ids := make([]string, len(opt.Delays))
		for i, id := range opt.Delays {
			ids[i] = strconv.Itoa(int(id))
		}
		fmt.Fprintf(&b, "\tSetDelays([]uint32{%s}, time.Duration(%d), %v)\n", strings.Join(ids, ", "), int64(opt.Delay), opt.Spin)
	}
	b.WriteString("}\n")
	return b.String()
}

// cacheDir returns (creating it) a directory under the user's cache.
func cacheDir(elem ...string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(append([]string{base, "suncat"}, elem...)...)
	return dir, os.MkdirAll(dir, 0o755)
}

// workDir returns a new work directory for one build of the module at
// moduleDir; the build removes it when done. Builds of the same module may
// run at the same time. The go build cache does not depend on where the
// overlay files are (it hashes their content under the original names),
// so a fresh directory per build costs no cache hit.
func workDir(moduleDir string) (string, error) {
	dir, err := cacheDir("work")
	if err != nil {
		return "", err
	}
	// Left behind by builds that were killed.
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > 24*time.Hour {
				os.RemoveAll(filepath.Join(dir, e.Name()))
			}
		}
	}
	return os.MkdirTemp(dir, dirHash(moduleDir)+"-")
}

// dirHash names a directory by a short hash of its path.
func dirHash(dir string) string {
	h := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(h[:6])
}
