package instrument

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Analyze finds the string getters of the main-module packages that the
// patterns' packages depend on (the patterns' packages included). Results
// are cached by file content (see cache.go).
func Analyze(ctx context.Context, opt Options) (*Analysis, error) {
	if len(opt.Patterns) == 0 {
		opt.Patterns = []string{"."}
	}
	if opt.named == "" {
		opt.named = strings.Join(opt.Patterns, " ")
	}
	if len(opt.Patterns) == 1 {
		opt.Dir, opt.Patterns[0] = normalize(opt.Dir, opt.Patterns[0])
	}
	key, cacheable := cacheKey(opt)
	if cacheable && !opt.NoCache {
		if a, ok := loadCached(key); ok {
			if opt.Progress != nil {
				fmt.Fprintf(opt.Progress, "suncat: %d getter(s)%s, sources unchanged since the last analysis\n", a.NumGetters(), a.Events())
				for _, h := range a.DepHints {
					fmt.Fprintf(opt.Progress, "suncat: %s\n", h)
				}
			}
			return a, nil
		}
	}
	a, err := analyze(ctx, opt)
	if err == nil && cacheable {
		storeCached(key, a)
	}
	return a, err
}

// depMatcher compiles comma-separated import path patterns, where "..."
// matches any string, as for the go command.
func depMatcher(spec string) (*regexp.Regexp, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	var alts []string
	for _, p := range strings.Split(spec, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		q := regexp.QuoteMeta(p)
		q = strings.ReplaceAll(q, `/\.\.\.`, `(/.*)?`)
		q = strings.ReplaceAll(q, `\.\.\.`, `.*`)
		alts = append(alts, q)
	}
	return regexp.Compile("^(" + strings.Join(alts, "|") + ")$")
}

// normalize turns a relative directory pattern into a working directory,
// so that a program in another module (./testdata/app with its own
// go.mod) is loaded from its own module: go list would refuse it from
// here.
func normalize(dir, pattern string) (string, string) {
	if !(pattern == "." || strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../") || filepath.IsAbs(pattern)) || strings.Contains(pattern, "...") {
		return dir, pattern
	}
	p := pattern
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p, "."
	}
	return dir, pattern
}

// analyze is Analyze without the cache. Its stages: list the import
// graph, pick the packages to analyze (ourPackages), note the patterns'
// own packages (addRoots), find the main module, then load those packages
// with syntax and types and classify their functions (classifyAll).
func analyze(ctx context.Context, opt Options) (*Analysis, error) {
	done, err := useModCopy(ctx, &opt)
	if err != nil {
		return nil, err
	}
	defer done()
	progress := progressTo(opt.Progress)
	roots, listErr, err := listGraph(ctx, opt, progress)
	if err != nil {
		return nil, err
	}
	deps, err := depMatcher(opt.Deps)
	if err != nil {
		return nil, err
	}
	a := &Analysis{}
	a.Packages = ourPackages(a, roots, deps)
	if deps != nil && len(a.DepModules) == 0 {
		return nil, noDepMatch(opt.Deps, opt.named)
	}
	a.DepHints = depHints(roots, opt.Deps, deps)
	for _, h := range a.DepHints {
		progress("%s", h)
	}
	addRoots(a, roots, opt.Tests)
	if a.ModulePath == "" {
		// A command of a dependency (go build example.com/tool from a
		// tools module): the runtime still goes into the main module.
		a.ModulePath, a.ModuleDir = mainModule(ctx, opt.Dir)
	}
	if a.ModulePath == "" {
		if listErr != nil {
			return nil, listErr
		}
		return nil, fmt.Errorf("%s: not in a module (suncat instruments the packages of the main module)", opt.named)
	}
	broken := map[string]bool{} // packages that do not build, with or without their tests
	if listErr != nil {
		addBroken(broken, roots)
	}
	if len(a.Packages) == 0 {
		// Nothing of ours in the program (a dependency's command without
		// -deps): no getters, but the program can still be built.
		progress("no package of module %s in %s", a.ModulePath, opt.named)
		reportBroken(broken, progress)
		return a, nil
	}
	if err := classifyAll(ctx, a, opt, broken, progress); err != nil {
		return nil, err
	}
	return a, nil
}

// progressTo returns a function that prints a progress line on w, or
// nothing when w is nil.
func progressTo(w io.Writer) func(format string, args ...interface{}) {
	return func(format string, args ...interface{}) {
		if w != nil {
			fmt.Fprintf(w, "suncat: "+format+"\n", args...)
		}
	}
}

// listGraph loads the import graph of the patterns, lightly: names,
// modules, imports and files. It returns the patterns' packages, and the
// packages' errors as listErr: go test builds and runs every package it
// can and reports the others as failed, so with tests a package that
// does not build is only left uninstrumented (go test will say why);
// without, listErr is the error.
func listGraph(ctx context.Context, opt Options, progress func(string, ...interface{})) (roots []*packages.Package, listErr, err error) {
	progress("listing packages of %s", opt.named)
	light := &packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedModule | packages.NeedImports | packages.NeedDeps | packages.NeedFiles,
		Dir:        opt.Dir,
		BuildFlags: opt.BuildFlags,
		Tests:      opt.Tests,
	}
	roots, err = packages.Load(light, opt.Patterns...)
	if err != nil {
		return nil, nil, loadError(err)
	}
	listErr = listErrors(roots)
	if listErr != nil && !opt.Tests {
		return nil, nil, listErr
	}
	if err := missingRoots(roots); err != nil {
		// go test would test the others and fail this one as "setup
		// failed"; a pattern naming nothing is a mistake to fix first.
		return nil, nil, err
	}
	return roots, listErr, nil
}

// missingRoots returns the go command's errors for the patterns that
// name no package at all (no directory, no files: ./nope/...), nil if
// every pattern found something. A package that exists but does not
// build is not missing.
func missingRoots(roots []*packages.Package) error {
	var missing []*packages.Package
	for _, p := range roots {
		if len(p.Errors) > 0 && len(p.GoFiles)+len(p.CompiledGoFiles)+len(p.OtherFiles)+len(p.IgnoredFiles) == 0 {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return listErrors(missing)
}

// ourPackages returns, sorted, the import paths of the packages in the
// import graph of roots that are analyzed: those of the main module and
// those deps matches, leaving out packages that exist only in go test's
// build and packages with errors. It sets a's main module (from the first
// main-module package) and dependency modules.
func ourPackages(a *Analysis, roots []*packages.Package, deps *regexp.Regexp) []string {
	var pkgs []string
	seen := map[string]bool{}
	depMods := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module == nil || seen[p.PkgPath] || isTestOnly(p) || len(p.Errors) > 0 {
			return
		}
		switch {
		case p.Module.Main:
			seen[p.PkgPath] = true
			pkgs = append(pkgs, p.PkgPath)
			if a.ModulePath == "" {
				a.ModulePath, a.ModuleDir = p.Module.Path, p.Module.Dir
			}
		case deps != nil && deps.MatchString(p.PkgPath):
			seen[p.PkgPath] = true
			pkgs = append(pkgs, p.PkgPath)
			if !depMods[p.Module.Path] {
				depMods[p.Module.Path] = true
				a.DepModules = append(a.DepModules, depModule(p.Module))
			}
		}
	})
	sort.Slice(a.DepModules, func(i, j int) bool { return a.DepModules[i].Path < a.DepModules[j].Path })
	sort.Strings(pkgs)
	return pkgs
}

// depHints says, for each -deps pattern without "..." that names a
// dependency module's path, how many more of that module's packages the
// program uses than the pattern takes (the module's root package
// alone): "-deps github.com/go-git/go-git/v5" instrumented none of the
// packages go-git's work is done in, and two trials took it for the
// whole module.
func depHints(roots []*packages.Package, spec string, deps *regexp.Regexp) []string {
	if deps == nil {
		return nil
	}
	used := map[string]int{} // packages of each dependency module in the graph
	taken := map[string]int{}
	seen := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module == nil || p.Module.Main || seen[p.PkgPath] || isTestOnly(p) {
			return
		}
		seen[p.PkgPath] = true
		used[p.Module.Path]++
		if deps.MatchString(p.PkgPath) {
			taken[p.Module.Path]++
		}
	})
	var hints []string
	for _, p := range strings.Split(spec, ",") {
		p = strings.TrimSpace(p)
		if strings.Contains(p, "...") || used[p] <= taken[p] {
			continue
		}
		hints = append(hints, fmt.Sprintf("-deps %s takes %d of the %d packages of module %s that the program uses; %s/... takes them all",
			p, taken[p], used[p], p, p))
	}
	return hints
}

// depModule describes dependency module m, in its replacement directory
// when the user's go.mod replaces it with one.
func depModule(m *packages.Module) DepModule {
	dm := DepModule{Path: m.Path, Version: m.Version, Dir: m.Dir}
	if m.Replace != nil {
		dm.Replaced, dm.Dir = true, m.Replace.Dir
		if dm.Dir == "" {
			dm.Dir = m.Dir
		}
	}
	return dm
}

// ErrNoDependency is in the error for an Options.Deps that matches no
// dependency package; the error starts with the value.
var ErrNoDependency = errors.New("matches no dependency")

// noDepMatch is the error for a Deps specification that matches no
// dependency of the patterns.
func noDepMatch(spec string, patterns string) error {
	first, _, _ := strings.Cut(strings.TrimSpace(spec), "/")
	if !strings.Contains(first, ".") {
		return fmt.Errorf("%q %w of %s (the standard library cannot be instrumented)", spec, ErrNoDependency, patterns)
	}
	return fmt.Errorf("%q %w of %s", spec, ErrNoDependency, patterns)
}

// addRoots records the patterns' packages in a: the commands among them
// and, with tests, their import paths and the main module's test files
// (sorted).
func addRoots(a *Analysis, roots []*packages.Package, tests bool) {
	testFiles := map[string]bool{}
	for _, r := range roots {
		if r.Name == "main" && !isTestOnly(r) {
			a.Commands = append(a.Commands, r.PkgPath)
		}
		if !tests || r.Name == "main" && strings.HasSuffix(r.ID, ".test") {
			continue // a generated test main
		}
		if r.ID == r.PkgPath {
			a.Roots = append(a.Roots, r.PkgPath)
		}
		if r.Module == nil || !r.Module.Main {
			continue
		}
		for _, f := range r.GoFiles {
			if strings.HasSuffix(f, "_test.go") && !testFiles[f] {
				testFiles[f] = true
				a.TestFiles = append(a.TestFiles, f)
			}
		}
	}
	sort.Strings(a.TestFiles)
}

// addBroken adds to broken the main module's packages in the import graph
// of roots that have errors (an external test package counts as the
// package it tests).
func addBroken(broken map[string]bool, roots []*packages.Package) {
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && p.Module != nil && p.Module.Main {
			broken[strings.TrimSuffix(p.PkgPath, "_test")] = true
		}
	})
}

func reportBroken(broken map[string]bool, progress func(string, ...interface{})) {
	if len(broken) > 0 {
		progress("%d package(s) do not build; go test reports them", len(broken))
	}
}

// classifyAll loads a.Packages with syntax and types, builds their SSA
// and classifies their functions into a.Getters (numbered from 1 in
// order of position) and a.Rejected. With tests, a package that does not
// type-check is added to broken and yields no getters.
func classifyAll(ctx context.Context, a *Analysis, opt Options, broken map[string]bool, progress func(string, ...interface{})) error {
	progress("loading %d package(s) of module %s", len(a.Packages), a.ModulePath)
	full := &packages.Config{
		Context:    ctx,
		Mode:       packages.LoadSyntax | packages.NeedModule,
		Dir:        opt.Dir,
		BuildFlags: opt.BuildFlags,
	}
	pkgs, err := packages.Load(full, a.Packages...)
	if err != nil {
		return loadError(err)
	}
	if err := listErrors(pkgs); err != nil {
		if !opt.Tests {
			return err
		}
		// Ill-typed packages (and those importing them) get no SSA
		// package below, so no getters.
		for _, p := range pkgs {
			if p.IllTyped {
				broken[p.PkgPath] = true
			}
		}
	}
	reportBroken(broken, progress)
	progress("building SSA")
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	progress("classifying functions")
	calls, err := ParseCalls(opt.Calls)
	if err != nil {
		return fmt.Errorf("-calls %w", err)
	}
	for i, p := range pkgs {
		if ssaPkgs[i] == nil {
			continue
		}
		classifyPackage(a, prog, p, opt)
		if opt.Reads || opt.Loops || opt.Calls != "" {
			eventSites(a, p, opt, calls.Patterns)
		}
	}
	sort.SliceStable(a.Getters, func(i, j int) bool { return posLess(a.Getters[i].Pos, a.Getters[j].Pos) })
	for i := range a.Getters {
		a.Getters[i].ID = uint32(i + 1)
	}
	sort.SliceStable(a.Rejected, func(i, j int) bool { return posLess(a.Rejected[i].Pos, a.Rejected[j].Pos) })
	progress("found %d getter(s) in %d package(s)", len(a.Getters), len(a.Packages))
	if opt.Reads || opt.Loops || opt.Calls != "" {
		n := len(a.Getters)
		a.Getters = append(a.Getters, numberSites(a.Sites, n)...)
		m := len(a.Getters)
		a.Getters = append(a.Getters, hookEntries(calls, uint32(len(a.Getters)))...)
		for _, h := range []struct {
			on   bool
			name string
		}{{calls.SQL, "sql"}, {calls.HTTP, "http"}} {
			if h.on {
				a.Hooks = append(a.Hooks, h.name)
			}
		}
		found := fmt.Sprintf("found %d read and call site(s) of %d field(s) and function(s)", len(a.Sites), m-n)
		if hooked := len(a.Getters) - m; hooked > 0 {
			// database/sql's and net/http's methods are recorded where
			// they are, whoever calls them: no site of the program's
			// is rewritten for them.
			var pkgs []string
			for _, g := range a.Getters[m:] {
				if !slices.Contains(pkgs, g.PkgPath) {
					pkgs = append(pkgs, g.PkgPath)
				}
			}
			found += fmt.Sprintf(", and %d function(s) of %s recorded inside it, whoever calls them", hooked, strings.Join(pkgs, " and "))
		}
		progress("%s", found)
	}
	return nil
}

// isTestOnly reports whether p exists only in go test's build: an external
// test package (p_test) or a generated test main (p.test). The test
// variant of a package ("p [p.test]") has p's import path and counts as p.
func isTestOnly(p *packages.Package) bool {
	if p.Name == "main" && strings.HasSuffix(p.ID, ".test") {
		return true
	}
	return p.ID != p.PkgPath && strings.HasSuffix(p.PkgPath, "_test")
}

// loadError unwraps go/packages' report of a failed go list ("err: exit
// status 1: stderr: go: ...") to the go command's own message.
func loadError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "stderr: "); i >= 0 && strings.HasPrefix(msg, "err: exit status") {
		return fmt.Errorf("%s", strings.TrimSpace(msg[i+len("stderr: "):]))
	}
	return err
}

// mainModule returns the path and directory of the main module at dir
// (the first one of a workspace), or "" outside a module.
func mainModule(ctx context.Context, dir string) (string, string) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	path, mdir, ok := strings.Cut(line, "\t")
	if !ok || path == "" || path == "command-line-arguments" || mdir == "" {
		return "", ""
	}
	return path, mdir
}

func posLess(a, b token.Position) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	return a.Offset < b.Offset
}

// listErrors turns the packages' errors into one error that shows them
// all, like the go command would.
func listErrors(pkgs []*packages.Package) error {
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		// The go command's compiler output ("# pkg" and its lines)
		// repeats the type checker's errors with relative paths: keep
		// it only if it says something the type checker did not.
		typeErrs := map[string]bool{}
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError {
				typeErrs[errorKey(e.Pos, e.Msg)] = true
			}
		}
		for _, e := range p.Errors {
			if e.Kind != packages.TypeError && len(typeErrs) > 0 && coveredCompilerOutput(e.Msg, typeErrs) {
				continue
			}
			if e.Pos == "" || e.Pos == "-" {
				msgs = append(msgs, e.Msg)
			} else {
				msgs = append(msgs, e.Error())
			}
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	if len(msgs) > 20 {
		msgs = append(msgs[:20], fmt.Sprintf("... and %d more errors", len(msgs)-20))
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

// errorKey identifies an error by file name (without directory), line,
// column and message.
func errorKey(pos, msg string) string {
	return filepath.Base(pos) + ": " + strings.TrimSpace(msg)
}

// coveredCompilerOutput reports whether msg is the compiler's output for a
// package ("# pkg" then "./file.go:line:col: message" lines) and every
// error in it is among the type checker's errors.
func coveredCompilerOutput(msg string, typeErrs map[string]bool) bool {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "# ") {
		return false
	}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "\t") || strings.Contains(l, "too many errors") {
			continue // a continuation line, or the compiler's cut-off
		}
		// "./b.go:3:26: undefined: x" -> position and message.
		i := strings.Index(l, ".go:")
		if i < 0 {
			return false
		}
		rest := l[i+len(".go:"):]
		var k int
		for n := 0; n < 2; n++ { // line and column
			j := strings.IndexByte(rest[k:], ':')
			if j < 0 {
				return false
			}
			k += j + 1
		}
		if !typeErrs[errorKey(l[:i+len(".go:")+k-1], rest[k:])] {
			return false
		}
	}
	return true
}

// eventSites adds the read and call sites of package p to a.Sites (and
// the reads left out to a.Rejected), and notes the command's first file.
func eventSites(a *Analysis, p *packages.Package, opt Options, calls *regexp.Regexp) {
	sources := map[string]bool{}
	for _, f := range p.GoFiles {
		sources[f] = true
	}
	for _, file := range p.Syntax {
		fname := p.Fset.PositionFor(file.Pos(), false).Filename
		if !sources[fname] || strings.HasSuffix(fname, "_test.go") || isCgo(file) {
			continue
		}
		if p.Name == "main" && a.MainFile == "" && len(a.Commands) == 1 && p.PkgPath == a.Commands[0] {
			a.MainFile = fname
		}
		sites, left := findSites(p.Fset, file, p.TypesInfo, p.Types, opt.Reads, opt.Loops, calls, opt.Match, opt.Skip)
		if len(sites) > 0 && needsRaise(moduleGo(p.Module), file.GoVersion) {
			sites, left = raiseSites(fname, sites, left)
		}
		a.Sites = append(a.Sites, sites...)
		a.Rejected = append(a.Rejected, left...)
	}
}

// moduleGo returns the go line of module m ("" for none).
func moduleGo(m *packages.Module) string {
	if m == nil {
		return ""
	}
	if m.Replace != nil {
		return m.Replace.GoVersion
	}
	return m.GoVersion
}

// raiseSites marks the sites of file fname, whose language is older than
// the rewrite needs, as needing a //go:build line (Site.Raise; see
// language.go), or, where the file has no line for one, leaves them out
// with the reason.
func raiseSites(fname string, sites []Site, left []Rejected) ([]Site, []Rejected) {
	src, err := os.ReadFile(fname)
	if err == nil {
		_, err = raiseFile(fname, src)
	}
	if err != nil {
		for _, s := range sites {
			left = append(left, Rejected{PkgPath: s.key.Pkg, Receiver: s.key.Receiver, Method: s.key.Name,
				Pos: token.Position{Filename: s.File, Line: s.Line},
				Why: fmt.Sprintf("the file's language is older than %s, which the rewrite needs, and %v", sitesGo, err)})
		}
		return nil, left
	}
	for i := range sites {
		sites[i].Raise = true
	}
	return sites, left
}

func classifyPackage(a *Analysis, prog *ssa.Program, p *packages.Package, opt Options) {
	sources := map[string]bool{}
	for _, f := range p.GoFiles {
		sources[f] = true
	}
	for _, file := range p.Syntax {
		// Unadjusted positions: a //line directive (generated code) must
		// not send the rewrite to another file.
		fname := p.Fset.PositionFor(file.Pos(), false).Filename
		// cgo's output (a file in the build cache, no longer importing
		// "C") is classified, and its getters are found again in the
		// original file, by the line its //line directives give.
		cgoOut := !sources[fname]
		if strings.HasSuffix(fname, "_test.go") || isCgo(file) {
			continue
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := obj.Type().(*types.Signature)
			if sig.Recv() == nil && !opt.Funcs {
				continue
			}
			idx, ok := stringResult(sig)
			if !ok {
				continue
			}
			recv := receiverName(fd)
			display := Getter{Receiver: recv, Method: fd.Name.Name}.Name()
			full := p.PkgPath + "." + display
			if opt.Match != nil && !opt.Match.MatchString(full) {
				continue
			}
			if opt.Skip != nil && opt.Skip.MatchString(full) {
				continue
			}
			pos := p.Fset.PositionFor(fd.Pos(), false)
			if cgoOut {
				adj := p.Fset.Position(fd.Pos())
				if pos, ok = origDecl(adj.Filename, adj.Line, fd.Name.Name); !ok || !sources[pos.Filename] {
					continue
				}
			}
			fn := prog.FuncValue(obj)
			if fn == nil {
				continue
			}
			field, why, ok := classify(fn, idx)
			if !ok {
				a.Rejected = append(a.Rejected, Rejected{PkgPath: p.PkgPath, Receiver: recv, Method: fd.Name.Name, Pos: pos, Why: why})
				continue
			}
			g := Getter{
				PkgPath: p.PkgPath, Receiver: recv, Method: fd.Name.Name, Pos: pos,
				Field: field, Why: why, ResultIndex: idx, NumResults: sig.Results().Len(),
			}
			if named, ok := types.Unalias(sig.Results().At(idx).Type()).(*types.Named); ok {
				g.ResultType = named.Obj().Name()
				if named.Obj().Pkg() != nil && named.Obj().Pkg() != obj.Pkg() {
					// A named string type of another package: the
					// rewrite converts through the result variable's
					// type instead (see Rewrite).
					g.ResultType = "?" + named.Obj().Pkg().Path() + "." + named.Obj().Name()
				}
			}
			a.Getters = append(a.Getters, g)
		}
	}
}

// origDecl finds the declaration of function name at line of filename
// (a cgo source file) and returns its position there.
func origDecl(filename string, line int, name string) (token.Position, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, nil, parser.SkipObjectResolution)
	if err != nil {
		return token.Position{}, false
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			if pos := fset.PositionFor(fd.Pos(), false); pos.Line == line {
				return pos, true
			}
		}
	}
	return token.Position{}, false
}

func isCgo(f *ast.File) bool {
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// stringResult returns the index of the string result of sig: the only
// result, or the first of a (string, bool) pair. Named string types count.
func stringResult(sig *types.Signature) (int, bool) {
	res := sig.Results()
	isString := func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Kind() == types.String
	}
	switch res.Len() {
	case 1:
		return 0, isString(res.At(0).Type())
	case 2:
		b, ok := res.At(1).Type().Underlying().(*types.Basic)
		return 0, isString(res.At(0).Type()) && ok && b.Kind() == types.Bool
	}
	return 0, false
}

// receiverName prints the receiver type as written: "*Stop", "Stop",
// "List[T]".
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	var b strings.Builder
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.StarExpr:
			b.WriteByte('*')
			walk(e.X)
		case *ast.Ident:
			b.WriteString(e.Name)
		case *ast.IndexExpr:
			walk(e.X)
			b.WriteByte('[')
			walk(e.Index)
			b.WriteByte(']')
		case *ast.IndexListExpr:
			walk(e.X)
			b.WriteByte('[')
			for i, x := range e.Indices {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(x)
			}
			b.WriteByte(']')
		case *ast.ParenExpr:
			walk(e.X)
		default:
			b.WriteString("?")
		}
	}
	walk(fd.Recv.List[0].Type)
	return b.String()
}
