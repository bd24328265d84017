package instrument

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// BuildOptions control an instrumented build.
type BuildOptions struct {
	// Options choose the getters and pass the build flags, as for
	// Analyze. Patterns are the packages to test (PrepareTest; default
	// "."); Build takes Package instead.
	Options
	Package string // the main package to build; default "."
	// RewriteTests labels tests by rewriting copies of the test files
	// even where the testing package could be hooked (PrepareTest).
	RewriteTests bool
	Output       string // the binary to write; default: in the suncat cache

	// Delays slow the getters with these ids down (suncat delay).
	Delays []uint32
	Delay  time.Duration
	Spin   bool
	// DelayMatch limits the delays of the ids DelayMatchIDs to the calls
	// whose value matches it (logrt.SetDelayMatch: a LIKE pattern).
	DelayMatch    string
	DelayMatchIDs []uint32
	// Analysis, if not nil, is Analyze's result for this package and
	// these options, already made by the caller: Build uses it instead of
	// analyzing again (the getter ids in Delays are its).
	Analysis *Analysis

	testing bool // PrepareTest: the trace opens at the first getter call
}

// A BuildResult says what was built.
type BuildResult struct {
	Analysis *Analysis
	Output   string // the instrumented binary
}

// RuntimeDir is the directory, relative to the main module's root, where
// the runtime appears to the build (as overlays only; nothing is written
// there): tracefmt.RuntimeDir, which the reader shares.
const RuntimeDir = tracefmt.RuntimeDir

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
	a := opt.Analysis
	if a == nil {
		ao := opt.Options
		ao.Patterns, ao.Tests, ao.named = []string{pkg}, false, named
		var err error
		if a, err = Analyze(ctx, ao); err != nil {
			return nil, err
		}
	}
	if len(a.Commands) > 1 {
		return nil, fmt.Errorf("%s matches %d commands (%s); instrument one at a time", named, len(a.Commands), strings.Join(a.Commands, ", "))
	}
	if len(a.Commands) != 1 {
		return nil, fmt.Errorf("%s is not a main package (suncat builds programs; to study a library, instrument a program or test that uses it)", named)
	}
	p, err := prepare(ctx, a, opt)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if fi, err := os.Stat(out); (err == nil && fi.IsDir()) || strings.HasSuffix(opt.Output, "/") || strings.HasSuffix(opt.Output, string(filepath.Separator)) {
		// As go build -o does for a directory or a name ending in a slash.
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
		out = filepath.Join(out, execName(a.Commands[0]))
	}
	if out == "" {
		bin, err := cacheDir("bin", dirHash(a.ModuleDir))
		if err != nil {
			return nil, err
		}
		out = filepath.Join(bin, execName(a.Commands[0]))
	}
	if opt.Progress != nil {
		fmt.Fprintf(opt.Progress, "suncat: building %s with %d instrumented getter(s)%s\n", a.Commands[0], a.NumGetters(), a.Events())
	}
	args := append([]string{"build", "-o", out}, p.Args...)
	args = append(args, opt.BuildFlags...)
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = opt.Dir
	cmd.Env = append(os.Environ(), p.Env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go build failed:\n%s", strings.TrimSpace(stderr.String()))
	}
	return &BuildResult{Analysis: a, Output: out}, nil
}

// execName is the name go build gives the command with this import path:
// its last element, or the one before a major version suffix
// (example.com/tool/v4 builds tool).
func execName(importPath string) string {
	dir, elem := path.Split(importPath)
	if dir != "" && isMajorVersion(elem) {
		elem = path.Base(dir)
	}
	return elem
}

// isMajorVersion reports whether elem is a module path's major version
// suffix: v2, v3, ... (not v0, v1 or v01).
func isMajorVersion(elem string) bool {
	if len(elem) < 2 || elem[0] != 'v' || elem[1] == '0' || elem == "v1" {
		return false
	}
	for _, c := range elem[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// A Prepared build is what makes the go command compile instrumented
// sources: the overlay (and, with -deps, the redirected modules) in a work
// directory that lives until Close.
type Prepared struct {
	Analysis *Analysis
	Args     []string // go command flags: -overlay FILE, and -modfile FILE with -deps or GOFLAGS=-mod=mod
	Env      []string // extra environment (GOWORK=... with -deps in a workspace)
	Labelled int      // test packages (hooked) or files (rewritten) whose tests are labelled (PrepareTest)
	Hooked   bool     // tests are labelled through the testing package, not by rewriting test files
	work     string
}

// ModArgs returns the -modfile flag of p.Args (nil if none): what makes
// the go command read the module's requirements as the build does, for
// go commands that must not see the overlay (go vet of the user's code).
func (p *Prepared) ModArgs() []string {
	for i, a := range p.Args {
		if a == "-modfile" && i+1 < len(p.Args) {
			return p.Args[i : i+2 : i+2]
		}
	}
	return nil
}

// Close removes the work directory.
func (p *Prepared) Close() error { return os.RemoveAll(p.work) }

// prepare writes the overlay for the analyzed packages (and the test
// files, if the analysis lists them).
func prepare(ctx context.Context, a *Analysis, opt BuildOptions) (*Prepared, error) {
	gd, err := readGoDirs(ctx, opt.Dir)
	if err != nil {
		return nil, err
	}
	if gd.modcache != "" && within(a.ModuleDir, gd.modcache) {
		return nil, fmt.Errorf("%s is in the module cache, where the go command lets no file be replaced; copy the module out (cp -r %s /tmp/x && chmod -R u+w /tmp/x) and run suncat there", a.ModuleDir, a.ModuleDir)
	}
	work, err := workDir(a.ModuleDir)
	if err != nil {
		return nil, err
	}
	p := &Prepared{Analysis: a, work: work}
	var copies []*depCopy
	if len(a.DepModules) > 0 {
		copies = planDeps(gd, a)
	}
	overlay, err := writeOverlay(p, gd, opt, copies)
	if err != nil {
		p.Close()
		return nil, err
	}
	p.Args = []string{"-overlay", overlay}
	if len(copies) > 0 {
		pruneDeps()
		for _, d := range copies {
			if err := d.materialize(opt.Progress); err != nil {
				p.Close()
				return nil, err
			}
		}
		more, env, err := redirect(ctx, gd, work, opt.Dir, a, copies)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.Args, p.Env = append(p.Args, more...), env
	}
	if !hasFlag(p.Args, "modfile", "") {
		if moddir := modFileDir(ctx, opt.Dir, opt.BuildFlags); moddir != "" {
			more, err := copyModFile(moddir, work)
			if err != nil {
				p.Close()
				return nil, err
			}
			p.Args = append(p.Args, more...)
		}
	}
	return p, nil
}

// PrepareTest analyzes the packages (opt.Patterns, default ".") and their
// tests, and writes what makes go test build them instrumented, with every
// test and subtest labelled in the trace (see RewriteTest). The caller
// runs go test with the result's Args and Env, then calls Close.
func PrepareTest(ctx context.Context, opt BuildOptions) (*Prepared, error) {
	ao := opt.Options
	ao.Patterns, ao.Tests = append([]string(nil), opt.Patterns...), true
	a, err := Analyze(ctx, ao)
	if err != nil {
		return nil, err
	}
	opt.testing = true
	return prepare(ctx, a, opt)
}

// writeOverlay writes the rewritten files, the runtime, the tests' labels
// (recorded in p.Labelled and p.Hooked) and the overlay description into
// p's work directory, and returns the description's path. Rewritten files
// of copied dependency modules go into their copy (see deps.go) instead
// of the overlay.
func writeOverlay(p *Prepared, gd goDirs, opt BuildOptions, copies []*depCopy) (string, error) {
	work, a := p.work, p.Analysis
	replace := map[string]string{}
	rtImport := a.ModulePath + "/" + RuntimeDir
	if err := overlaySources(work, a, opt, copies, rtImport, replace); err != nil {
		return "", err
	}
	if err := overlayRuntime(work, a, opt, rtImport, replace); err != nil {
		return "", err
	}
	if len(a.Hooks) > 0 {
		if err := overlayStd(work, a, gd.goroot, replace); err != nil {
			return "", err
		}
	}
	var err error
	p.Labelled, p.Hooked, err = overlayTests(work, a, gd.goroot, opt, rtImport, replace)
	if err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	ovl := filepath.Join(work, "overlay.json")
	return ovl, os.WriteFile(ovl, data, 0o644)
}

// overlaySources rewrites the files that hold getters, read or call sites,
// and the main file (which imports the runtime, for reads and calls), into
// the work directory or their dependency module's copy.
func overlaySources(work string, a *Analysis, opt BuildOptions, copies []*depCopy, rtImport string, replace map[string]string) error {
	byFile := map[string][]Getter{}
	for _, g := range a.Getters {
		if g.Kind == KindGetter {
			byFile[g.Pos.Filename] = append(byFile[g.Pos.Filename], g)
		}
	}
	sitesByFile := map[string][]Site{}
	raise := map[string]bool{}
	for _, s := range a.Sites {
		sitesByFile[s.File] = append(sitesByFile[s.File], s)
		raise[s.File] = raise[s.File] || s.Raise
		if _, ok := byFile[s.File]; !ok {
			byFile[s.File] = nil
		}
	}
	if a.MainFile != "" && !opt.testing {
		if _, ok := byFile[a.MainFile]; !ok {
			byFile[a.MainFile] = nil
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		out, err := RewriteEvents(f, src, byFile[f], sitesByFile[f], rtImport)
		if err == nil && raise[f] {
			out, err = raiseFile(f, out)
		}
		if err != nil {
			return err
		}
		if d, rel, ok := copyFor(copies, f); ok {
			d.files[rel] = out
			continue
		}
		dst := filepath.Join(work, fmt.Sprintf("src%03d_%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return err
		}
		replace[f] = dst
	}
	return nil
}

// overlayRuntime places the runtime's files and the generated getter
// table in the module's RuntimeDir, which must not exist in the module.
func overlayRuntime(work string, a *Analysis, opt BuildOptions, rtImport string, replace map[string]string) error {
	rtDir := filepath.Join(a.ModuleDir, filepath.FromSlash(RuntimeDir))
	if _, err := os.Stat(rtDir); err == nil {
		return fmt.Errorf("%s exists in your module; suncat needs that directory for its runtime", rtDir)
	}
	rtFiles, err := runtimeFilesFor(moduleGoVersion(a.ModuleDir), rtImport)
	if err != nil {
		return err
	}
	rtWork := filepath.Join(work, "rt")
	rtFiles["zz_suncat_table.go"] = []byte(tableSource(a, opt))
	for name, data := range rtFiles {
		dst := filepath.Join(rtWork, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
		replace[filepath.Join(rtDir, filepath.FromSlash(name))] = dst
	}
	return nil
}

// overlayStd places the standard library files patched for -calls sql
// and http (patchStd).
func overlayStd(work string, a *Analysis, goroot string, replace map[string]string) error {
	std, err := patchStd(a, goroot)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(std))
	for f := range std {
		names = append(names, f)
	}
	sort.Strings(names)
	for i, f := range names {
		dst := filepath.Join(work, fmt.Sprintf("std%03d_%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, std[f], 0o644); err != nil {
			return err
		}
		replace[f] = dst
	}
	return nil
}

// overlayTests makes the tests of the analysis's test files label their
// events with their names. It hooks the testing package itself when it
// can (hookTests: every test, subtest, benchmark and example, however
// started, and the test files stay as they are); with a toolchain whose
// testing package it does not know, it rewrites copies of the test files
// instead (RewriteTest and logrt/testhook). It returns how many test
// packages (hooked) or files (rewritten) label their tests.
func overlayTests(work string, a *Analysis, goroot string, opt BuildOptions, rtImport string, replace map[string]string) (int, bool, error) {
	if len(a.TestFiles) == 0 {
		return 0, false, nil
	}
	hooked := map[string]string{}
	n, err := 0, errors.New("rewriting the test files was asked for")
	if !opt.RewriteTests {
		n, err = hookTests(a, goroot, work, rtImport, hooked)
	}
	if err == nil {
		for k, v := range hooked {
			replace[k] = v
		}
		return n, true, nil
	}
	if opt.Progress != nil && !opt.RewriteTests {
		fmt.Fprintf(opt.Progress, "suncat: cannot hook this toolchain's testing package (%v); labelling tests by rewriting copies of the test files\n", err)
	}
	n, err = rewriteTests(work, a, rtImport, replace)
	return n, false, err
}

// rewriteTests adds the labelled copies of the analysis's test files, and
// the hooks they call (logrt/testhook, as the package suncatrt/testhook),
// to the overlay. It returns how many files were labelled.
func rewriteTests(work string, a *Analysis, rtImport string, replace map[string]string) (int, error) {
	hookImport := rtImport + "/testhook"
	dir := filepath.Join(work, "tests")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	labelled := 0
	for i, f := range a.TestFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		out, changed, err := RewriteTest(f, src, hookImport)
		if err != nil || !changed {
			continue // as it is (go test reports a file that does not parse)
		}
		dst := filepath.Join(dir, fmt.Sprintf("test%03d_%s", i, filepath.Base(f)))
		if err := os.WriteFile(dst, out, 0o644); err != nil {
			return 0, err
		}
		replace[f] = dst
		labelled++
	}
	if labelled == 0 {
		return 0, nil
	}
	src := bytes.Replace(suncat.TestHook, []byte(strconv.Quote(logrtImport)), []byte(strconv.Quote(rtImport)), 1)
	if bytes.Equal(src, suncat.TestHook) {
		return 0, fmt.Errorf("internal error: testhook does not import %s", logrtImport)
	}
	if belowRuntime(moduleGoVersion(a.ModuleDir)) {
		src = raiseLanguage(src, runtimeGo)
	}
	dst := filepath.Join(dir, "testhook.go")
	if err := os.WriteFile(dst, src, 0o644); err != nil {
		return 0, err
	}
	replace[filepath.Join(a.ModuleDir, filepath.FromSlash(RuntimeDir), "testhook", "testhook.go")] = dst
	return labelled, nil
}

// logrtImport is the runtime's import path in suncat's own module.
const logrtImport = "github.com/suncat-go/suncat/logrt"

// RuntimeFiles returns the runtime's files as they are compiled into
// instrumented programs whose runtime package is rtImport, by their
// slash-separated paths in its directory: logrt's non-test files (from
// suncat.Runtime), and under tracefmt/ those of the format definitions that logrt imports
// (logrt/tracefmt), whose import path becomes rtImport + "/tracefmt".
// Nothing of the reader (logrt/tracefile) or the control client
// (logrt/host) is among them. They are all Go (the go command cannot
// assemble files of a package that exists only as overlays); logrt's
// frame-pointer unwinder needs no assembly.
func RuntimeFiles(rtImport string) (map[string][]byte, error) {
	from := []byte(strconv.Quote(logrtImport + "/tracefmt"))
	to := []byte(strconv.Quote(rtImport + "/tracefmt"))
	files := map[string][]byte{}
	for _, dir := range []string{".", "tracefmt"} {
		entries, err := fs.ReadDir(suncat.Runtime, path.Join("logrt", dir))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name := path.Join(dir, e.Name())
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			data, err := fs.ReadFile(suncat.Runtime, path.Join("logrt", name))
			if err != nil {
				return nil, err
			}
			data = bytes.ReplaceAll(data, from, to)
			if bytes.Contains(data, []byte(strconv.Quote(logrtImport))) || bytes.Contains(data, []byte(`"`+logrtImport+"/")) {
				return nil, fmt.Errorf("internal error: runtime file %s imports a package of suncat other than tracefmt", name)
			}
			files[name] = data
		}
	}
	return files, nil
}

// runtimeGo is the language version the runtime is written for (see
// logrt's doc).
const runtimeGo = "go1.18"

// runtimeFilesFor returns the runtime's files for a module whose go
// directive says goVersion: the runtime is compiled as part of that module,
// so under an older language version than the runtime's own, its files
// carry a go1.18 build constraint, which raises their language version
// (and which every toolchain that reads overlays satisfies).
func runtimeFilesFor(goVersion, rtImport string) (map[string][]byte, error) {
	files, err := RuntimeFiles(rtImport)
	if err != nil || !belowRuntime(goVersion) {
		return files, err
	}
	for name, data := range files {
		if strings.HasSuffix(name, ".go") {
			files[name] = raiseLanguage(data, runtimeGo)
		}
	}
	return files, nil
}

// belowRuntime reports whether goVersion ("" for unknown) is older than
// the runtime's language version.
func belowRuntime(goVersion string) bool {
	return goVersion != "" && version.Compare(goVersion, runtimeGo) < 0
}

// raiseLanguage adds the constraint goVersion (go1.18) to a Go file's
// //go:build line, or gives it one.
func raiseLanguage(src []byte, goVersion string) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	for i, l := range lines {
		if expr, ok := strings.CutPrefix(l, "//go:build "); ok {
			lines[i] = "//go:build " + goVersion + " && (" + strings.TrimSpace(expr) + ")\n"
			return []byte(strings.Join(lines, ""))
		}
		if strings.HasPrefix(l, "package ") {
			break
		}
	}
	return append([]byte("//go:build "+goVersion+"\n\n"), src...)
}

// moduleGoVersion returns the language version of the module in dir, as
// its go.mod's go directive says ("go1.16" without one, as the go command
// assumes).
func moduleGoVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "//")
		if f := strings.Fields(line); len(f) == 2 && f[0] == "go" {
			return "go" + f[1]
		}
	}
	return "go1.16"
}

// tableSource generates the runtime file that passes the getter table
// (and the delays, if any) to logrt.
func tableSource(a *Analysis, opt BuildOptions) string {
	var b strings.Builder
	b.WriteString("// Code generated by suncat. DO NOT EDIT.\n\npackage logrt\n\n")
	imports, hooks := hookTable(a)
	if len(opt.Delays) > 0 {
		imports = append(imports, "\"time\"")
	}
	switch len(imports) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "import %s\n\n", imports[0])
	default:
		fmt.Fprintf(&b, "import (\n\t%s\n)\n\n", strings.Join(imports, "\n\t"))
	}
	b.WriteString("func init() {\n\tSetGetters([]Getter{\n")
	for _, g := range a.Getters {
		fmt.Fprintf(&b, "\t\t{ID: %d, Package: %q, Receiver: %q, Method: %q, File: %q, Line: %d, Field: %q},\n",
			g.ID, g.PkgPath, g.Receiver, g.Method, g.Pos.Filename, g.Pos.Line, g.Field)
	}
	b.WriteString("\t})\n")
	for _, h := range hooks {
		b.WriteString("\t" + h + "\n")
	}
	if !opt.testing {
		// A program's trace and control socket exist from its start.
		b.WriteString("\tStart()\n")
	}
	if len(opt.Delays) > 0 {
		ids := make([]string, len(opt.Delays))
		for i, id := range opt.Delays {
			ids[i] = strconv.Itoa(int(id))
		}
		fmt.Fprintf(&b, "\tSetDelays([]uint32{%s}, time.Duration(%d), %v)\n", strings.Join(ids, ", "), int64(opt.Delay), opt.Spin)
		if len(opt.DelayMatchIDs) > 0 {
			ids = ids[:0]
			for _, id := range opt.DelayMatchIDs {
				ids = append(ids, strconv.Itoa(int(id)))
			}
			fmt.Fprintf(&b, "\tSetDelayMatch([]uint32{%s}, %q)\n", strings.Join(ids, ", "), opt.DelayMatch)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// CacheDir is the directory of suncat's build cache: suncat under the
// user's cache directory (os.UserCacheDir), or, where there is none (HOME
// and XDG_CACHE_HOME unset: env -i, cron, some CI and systemd units),
// suncat-cache-<uid> under the temporary directory, this user's own.
// suncat clean removes it.
func CacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		name := "suncat-cache"
		if uid := os.Getuid(); uid >= 0 {
			name = fmt.Sprintf("suncat-cache-%d", uid)
		}
		return filepath.Join(os.TempDir(), name)
	}
	return filepath.Join(base, "suncat")
}

// MakeCacheDir returns (creating it, 0700) the directory elem under
// CacheDir. The cache holds the binaries that run, delay and test
// execute: CacheDir is made 0700 if it is not there, and refused (with a
// build cache: prefix) unless it is a real directory of this user's that
// no one else can write to (tracefmt.CheckPrivateDir); one that an older
// suncat made 0755 is closed to others' writes, and is made 0700.
func MakeCacheDir(elem ...string) (string, error) {
	root := CacheDir()
	if err := makePrivateDir(root); err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	dir := filepath.Join(append([]string{root}, elem...)...)
	return dir, os.MkdirAll(dir, 0o700)
}

// makePrivateDir makes dir 0700 if it is not there, and checks that it
// is private (MakeCacheDir).
func makePrivateDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	err := tracefmt.CheckPrivateDir(dir)
	if err == nil {
		return nil
	}
	fi, lerr := os.Lstat(dir)
	if lerr == nil && fi.IsDir() && fi.Mode().Perm()&0o022 == 0 && ownedByMe(fi) {
		if os.Chmod(dir, 0o700) == nil {
			return tracefmt.CheckPrivateDir(dir)
		}
	}
	return err
}

// cacheDir returns (creating it) a directory under CacheDir.
func cacheDir(elem ...string) (string, error) { return MakeCacheDir(elem...) }

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
