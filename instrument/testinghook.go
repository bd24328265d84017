package instrument

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// hookVar is the variable that the patched testing package calls with the
// name of the test, subtest, benchmark or example that runs from then on;
// endVar the one it calls when a test's function or a benchmark's run
// returns (the runtime's EndSpan: the span's time reaches it).
const (
	hookVar = "SuncatLabel"
	endVar  = "SuncatEnd"
)

// A testingEdit inserts a statement into a file of the standard library's
// testing package, on an existing line (no line moves, so the testing
// package's own positions in panics stay right): right after anchor, or
// right before it (before), or before the closing brace of the function
// (atEnd). within, when set, is the function's opening line; the anchor
// must lie in that function.
type testingEdit struct {
	file     string
	within   string
	anchor   string
	before   bool
	atEnd    bool
	code     string
	required bool // without it, labels would be wrong: do not patch
}

// testingEdits are the places where the testing package tells the trace
// which test runs: the start of a test's, fuzz test's or benchmark's own
// code (a benchmark's with the b.N of the run: "BenchmarkX/n=10
// (b.N=1000)", so that calls and time can be divided per op), where a
// parent goes on after a subtest, where a parallel test
// resumes, where a test's cleanup runs after its parallel subtests, and
// TestMain's code around m.Run.
var testingEdits = []testingEdit{
	{file: "testing.go", anchor: "func tRunner(t *T, fn func(t *T)) {", code: " suncatLabel(t.name);", required: true},
	{file: "testing.go", within: "func (t *T) Run(name string, f func(t *T)) bool {", anchor: "return !t.failed\n}", before: true, code: "suncatLabel(t.parent.name); ", required: true},
	{file: "testing.go", within: "func (t *T) Parallel() {", atEnd: true, code: "suncatLabel(t.name); ", required: true},
	{file: "benchmark.go", anchor: "func (b *B) runN(n int) {", code: ` suncatLabel(b.name + " (b.N=" + strconv.Itoa(n) + ")");`},
	// The end of a benchmark's run and of a test's function: the time of
	// the span reaches it, past its last event.
	{file: "benchmark.go", within: "func (b *B) runN(n int) {", anchor: "\tb.benchFunc(b)", code: "; suncatEnd()"},
	{file: "testing.go", within: "func tRunner(t *T, fn func(t *T)) {", anchor: "\n\tfn(t)", code: "; suncatEnd()"},
	// b.Loop runs its iterations within one runN, in chunks of growing
	// size: each chunk is labelled with its own count.
	{file: "benchmark.go", within: "func (b *B) loopSlowPath() bool {", anchor: "\t\tb.N = 0", code: `; suncatLabel(b.name + " (b.N=" + strconv.Itoa(int(b.loop.n)) + ")")`},
	{file: "benchmark.go", within: "func (b *B) stopOrScaleBLoop() bool {", anchor: "return uint64(prevIters) < b.loop.n", before: true, code: `if uint64(prevIters) < b.loop.n { suncatLabel(b.name + " (b.N=" + strconv.Itoa(int(b.loop.n-uint64(prevIters))) + ")") }; `},
	{file: "benchmark.go", within: "func (b *B) Run(name string, f func(b *B)) bool {", anchor: "\tif sub.run1() {\n\t\tsub.run()\n\t}", code: "; suncatLabel(b.name)"},
	// A test's cleanup after its parallel subtests.
	{file: "testing.go", within: "func tRunner(t *T, fn func(t *T)) {", anchor: "// Run any cleanup callbacks, marking the test as running", before: true, code: "suncatLabel(t.name); "},
	// TestMain's own code, before and after m.Run.
	{file: "testing.go", anchor: "func MainStart(deps testDeps, tests []InternalTest, benchmarks []InternalBenchmark, fuzzTargets []InternalFuzzTarget, examples []InternalExample) *M {", code: ` suncatLabel("TestMain");`},
	{file: "testing.go", anchor: "func (m *M) Run() (code int) {", code: ` defer func() { suncatLabel("TestMain") }();`},
	{file: "fuzz.go", anchor: "func fRunner(f *F, fn func(*F)) {", code: " suncatLabel(f.name);"},
	{file: "run_example.go", anchor: "func runExample(eg InternalExample) (ok bool) {", code: " suncatLabel(eg.Name);"},
	{file: "run_example_wasm.go", anchor: "func runExample(eg InternalExample) (ok bool) {", code: " suncatLabel(eg.Name);"},
}

// patchTesting returns the files of the testing package at goroot with
// the label calls inserted (file name -> new content), or an error saying
// why this toolchain's testing package cannot be patched.
func patchTesting(goroot string) (map[string][]byte, error) {
	dir := filepath.Join(goroot, "src", "testing")
	files := map[string][]byte{}
	for _, e := range testingEdits {
		src, ok := files[e.file]
		if !ok {
			data, err := os.ReadFile(filepath.Join(dir, e.file))
			if err != nil {
				if e.required || !os.IsNotExist(err) {
					return nil, err
				}
				continue
			}
			src = data
		}
		out, ok := insertAt(src, e)
		if !ok {
			if e.required {
				return nil, fmt.Errorf("%s: no %q", filepath.Join(dir, e.file), strings.TrimSpace(e.within+e.anchor))
			}
			continue
		}
		files[e.file] = out
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: nothing to patch", dir)
	}
	files["testing.go"] = append(files["testing.go"], fmt.Sprintf(`
// %s is set by suncat's instrumented tests to label the trace.
var %s func(name string)

func suncatLabel(name string) {
	if %s != nil && name != "" {
		%s(name)
	}
}

// %s is set by suncat's instrumented tests to end a test's span.
var %s func()

func suncatEnd() {
	if %s != nil {
		%s()
	}
}
`, hookVar, hookVar, hookVar, hookVar, endVar, endVar, endVar, endVar)...)
	return files, nil
}

// insertAt applies e to src.
func insertAt(src []byte, e testingEdit) ([]byte, bool) {
	start, end := 0, len(src)
	if e.within != "" {
		i := bytes.Index(src, []byte(e.within))
		if i < 0 {
			return nil, false
		}
		start = i + len(e.within)
		j := bytes.Index(src[start:], []byte("\n}\n"))
		if j < 0 {
			return nil, false
		}
		end = start + j + 1 // the function's closing brace
	}
	var at int
	switch {
	case e.atEnd:
		at = end
	default:
		limit := end
		if e.within != "" {
			limit++ // the closing brace itself
		}
		i := bytes.Index(src[start:limit], []byte(e.anchor))
		if i < 0 {
			return nil, false
		}
		at = start + i
		if !e.before {
			at += len(e.anchor)
		}
	}
	out := make([]byte, 0, len(src)+len(e.code))
	out = append(append(append(out, src[:at]...), e.code...), src[at:]...)
	return out, true
}

// hookTests adds to the overlay the patched testing package and, in each
// tested package with test files, a test file that points the testing
// package's label hook at the runtime's Label. It returns how many
// packages are hooked, or an error saying why the toolchain's testing
// package cannot be hooked (the caller then labels by rewriting the test
// files instead).
func hookTests(a *Analysis, goroot, work, rtImport string, replace map[string]string) (int, error) {
	patched, err := patchTesting(goroot)
	if err != nil {
		return 0, err
	}
	dir := filepath.Join(work, "testing")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, err
	}
	for name, data := range patched {
		dst := filepath.Join(dir, name)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return 0, err
		}
		replace[filepath.Join(goroot, "src", "testing", name)] = dst
	}
	// One hook file per directory, in the package of its first test file
	// whose package clause parses (go test reports the others).
	byDir := map[string]string{}
	for _, f := range a.TestFiles {
		d := filepath.Dir(f)
		if _, ok := byDir[d]; ok {
			continue
		}
		if pf, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly); err == nil {
			byDir[d] = pf.Name.Name
		}
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for i, d := range dirs {
		name := filepath.Join(d, "zz_suncat_label_test.go")
		if _, err := os.Stat(name); err == nil {
			return 0, fmt.Errorf("%s exists; suncat needs that name for its test hook", name)
		}
		// Imports under names no package declares (a package-level
		// "testing" would clash with a plain import).
		src := fmt.Sprintf("// Code generated by suncat. DO NOT EDIT.\n\npackage %s\n\nimport (\n\t__testing \"testing\"\n\n\t__suncat %q\n)\n\nfunc init() { __testing.%s = __suncat.Label; __testing.%s = __suncat.EndSpan }\n",
			byDir[d], rtImport, hookVar, endVar)
		dst := filepath.Join(dir, fmt.Sprintf("hook%03d_test.go", i))
		if err := os.WriteFile(dst, []byte(src), 0o644); err != nil {
			return 0, err
		}
		replace[name] = dst
	}
	return len(dirs), nil
}
