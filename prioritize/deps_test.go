package prioritize

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// depsTrace records a hooked call (-calls: recorded inside the standard
// library, as database/sql's or net/http's) at sizes 5, 10, 20, 40 from
// the stacks stacks(n) gives, each with its count; the frames "F@file:L"
// name files of testdata/deps (the program) or testdata/gomodcache (a
// dependency).
func depsTrace(t *testing.T, hook tracefile.Frame, stacks func(n int) map[*[]string]int) *Findings {
	t.Helper()
	b := newTrace("deps.suncat")
	for _, n := range []int{5, 10, 20, 40} {
		b.mark(fmt.Sprintf("n=%d", n))
		m := stacks(n)
		keys := make([]*[]string, 0, len(m))
		for st := range m {
			keys = append(keys, st)
		}
		sort.Slice(keys, func(i, j int) bool { return strings.Join(*keys[i], ",") < strings.Join(*keys[j], ",") })
		for _, st := range keys { // in a fixed order: ties rank by first appearance
			b.add(call{"Do", *st, "main.main", "GET"}, m[st])
		}
	}
	dot := strings.LastIndex(hook.Func, ".(")
	recv, method, _ := strings.Cut(hook.Func[dot+2:], ").")
	set := tracefmt.HookSQL
	if hook.Func[:dot] == "net/http" {
		set = tracefmt.HookHTTP
	}
	g := &b.tr.Getters[0]
	g.Package, g.Receiver, g.Method, g.Field = hook.Func[:dot], recv, method, tracefmt.CallPrefix+set
	for i := range b.tr.Stacks {
		b.tr.Stacks[i].Frames[0] = hook
	}
	return buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
}

// depsAt returns a frame maker for testdata's files: at("main.walk",
// "oci.go", 8).
func depsAt(t *testing.T) func(fn, file string, line int) string {
	deps, err := filepath.Abs(filepath.Join("testdata", "deps"))
	if err != nil {
		t.Fatal(err)
	}
	gmc, _ := filepath.Abs(filepath.Join("testdata", "gomodcache"))
	return func(fn, file string, line int) string {
		dir := deps
		if strings.Contains(file, "@") {
			dir = gmc
		}
		return fmt.Sprintf("%s@%s:%d", fn, filepath.Join(dir, file), line)
	}
}

const goexit = "runtime.goexit@/usr/local/go/src/runtime/asm_amd64.s:1700"

// TestDepCallback: a bookmark manager's import looks each bookmark up
// from a callback that an HTML library's Each (a dependency, in the
// module cache) calls per link. The finding names the program's frame
// that calls into the loop (importHTML, at the Each call), says that
// Each loops, and shows the callback; not lookup, which has no loop.
func TestDepCallback(t *testing.T) {
	at := depsAt(t)
	st := []string{at("main.lookup", "bookmarks.go", 13), at("main.importHTML.func1", "bookmarks.go", 8),
		at("example.org/htmlq.(*Selection).Each", "example.org/htmlq@v1.0.0/each.go", 7),
		at("main.importHTML", "bookmarks.go", 6), "main.main@/src/main.go:5", "runtime.main@/usr/local/go/src/runtime/proc.go:283", goexit}
	sql := tracefile.Frame{Func: "database/sql.(*DB).QueryRow", File: "/usr/local/go/src/database/sql/sql.go", Line: 1900}
	f := depsTrace(t, sql, func(n int) map[*[]string]int { return map[*[]string]int{&st: n} })
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings:\n%s", len(f.Findings), FindingsText(f, 0))
	}
	d := f.Findings[0]
	if d.Frame.Func != "main.importHTML" || d.Frame.Line != 6 || d.Why != WhyDep || d.Loops != "htmlq.(*Selection).Each" {
		t.Errorf("finding %s:%d (%s, loops %q), want main.importHTML:6 (dependency, htmlq.(*Selection).Each)", d.Frame.Func, d.Frame.Line, d.Why, d.Loops)
	}
	text := FindingsText(f, 0)
	if !strings.Contains(text, "via main.importHTML.func1 (bookmarks.go:8) ..., called back in htmlq.(*Selection).Each's loop") {
		t.Errorf("text lacks the callback and the dependency's loop:\n%s", text)
	}
}

// TestDepOwnLoop: a driver sanitizes a document of N tokens once, from a
// loop of its own that turns once; the sanitizer, a dependency
// instrumented with -deps, reads a field of each token in its loop. The
// events are the dependency's own, so its loop is named, not the
// driver's (a dependency's frames give way to the program's only on the
// way from the program's code back to it: TestDepCallback).
func TestDepOwnLoop(t *testing.T) {
	at := depsAt(t)
	const file = "example.org/sanitize@v1.0.0/sanitize.go"
	st := []string{at("main.sanitizeAll", "sanitizer.go", 8),
		"main.main@/src/main.go:5", "runtime.main@/usr/local/go/src/runtime/proc.go:283", goexit}
	// The field is the sanitizer's own type's, or a type of another
	// module that it reads (an HTML tokenizer's Token): the read is the
	// sanitizer's code either way.
	for _, pkg := range []string{"example.org/sanitize", "example.org/htmltok"} {
		b := newTrace("sanitize.suncat")
		for _, n := range []int{5, 10, 20, 40} {
			b.mark(fmt.Sprintf("n=%d", n))
			b.add(call{"kind", st, "main.main", "1"}, n)
		}
		// A read's stack starts at the reading function, at the read.
		reader := parseFrame(at("example.org/sanitize.(*Policy).Sanitize", file, 10))
		g := &b.tr.Getters[0]
		g.Package, g.Receiver, g.Method, g.Field, g.File = pkg, "token", "kind", tracefmt.ReadPrefix+"kind", reader.File
		for i := range b.tr.Stacks {
			b.tr.Stacks[i].Frames[0] = reader
		}
		f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
		if len(f.Findings) != 1 {
			t.Fatalf("%s: %d findings:\n%s", pkg, len(f.Findings), FindingsText(f, 0))
		}
		if d := f.Findings[0]; d.Frame.Func != "example.org/sanitize.(*Policy).Sanitize" || d.Why != WhyLoop || d.Frame.Line != 10 {
			t.Errorf("%s: finding %s:%d (%s), want the sanitizer's loop, sanitize.go:10 (loop):\n%s", pkg, d.Frame.Func, d.Frame.Line, d.Why, FindingsText(f, 0))
		}
	}
}

// TestDepGoroutine: a registry CLI starts one goroutine per repository,
// each asking the client's Tags for one request: no loop is on the
// goroutines' stacks, and the finding names the goroutine's function,
// not Tags.
func TestDepGoroutine(t *testing.T) {
	at := depsAt(t)
	st := []string{at("main.(*Client).Tags", "registry.go", 19), at("main.listAll.func1", "registry.go", 11), goexit}
	http := tracefile.Frame{Func: "net/http.(*Client).Do", File: "/usr/local/go/src/net/http/client.go", Line: 590}
	f := depsTrace(t, http, func(n int) map[*[]string]int { return map[*[]string]int{&st: n} })
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings:\n%s", len(f.Findings), FindingsText(f, 0))
	}
	if d := f.Findings[0]; d.Frame.Func != "main.listAll.func1" || d.Why != WhyGoroutine {
		t.Errorf("finding %s (%s), want main.listAll.func1 (goroutine):\n%s", d.Frame.Func, d.Why, FindingsText(f, 0))
	}
}

// TestDepRetryLoop: an OCI CLI walks N referrers recursively, two
// requests a node, each through its HTTP client's retry loop (for {
// ... }), which runs once per request; the ping request, once per run,
// goes through the same loop and stays flat. So the loop does not grow,
// and the findings name the recursive walk; without the ping, nothing
// tells, and the retry loop is named (the limit in doc/findings.md).
func TestDepRetryLoop(t *testing.T) {
	at := depsAt(t)
	out := []string{"main.main@/src/main.go:9", "runtime.main@/usr/local/go/src/runtime/proc.go:283", goexit}
	node := func(depth int, req []string) []string {
		st := append([]string(nil), req...)
		for d := 1; d < depth; d++ {
			st = append(st, at("main.walk", "oci.go", 10))
		}
		return append(st, out...)
	}
	do := at("main.(*Client).do", "oci.go", 16)
	http := tracefile.Frame{Func: "net/http.(*Client).Do", File: "/usr/local/go/src/net/http/client.go", Line: 590}
	record := func(ping bool) *Findings {
		return depsTrace(t, http, func(n int) map[*[]string]int {
			sts := map[*[]string]int{}
			for d := 1; d <= 3; d++ { // n nodes over three depths
				k := n / 3
				if d == 1 {
					k = n - 2*(n/3)
				}
				m := node(d, []string{do, at("main.(*Client).manifest", "oci.go", 24), at("main.walk", "oci.go", 8)})
				r := node(d, []string{do, at("main.(*Client).referrers", "oci.go", 26), at("main.walk", "oci.go", 9)})
				sts[&m], sts[&r] = k, k
			}
			if ping {
				p := append([]string{do, at("main.(*Client).ping", "oci.go", 28)}, out...)
				sts[&p] = 1
			}
			return sts
		})
	}
	f := record(true)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings:\n%s", len(f.Findings), FindingsText(f, 0))
	}
	if d := f.Findings[0]; d.Frame.Func != "main.walk" || d.Why != WhyRecursion || len(d.Sites) != 2 {
		t.Errorf("finding %s (%s, %d sites), want main.walk (recursion, 2 sites):\n%s", d.Frame.Func, d.Why, len(d.Sites), FindingsText(f, 0))
	}
	if d := record(false).Findings[0]; d.Frame.Func != "main.(*Client).do" {
		t.Errorf("without the ping: %s, want the retry loop (nothing tells it does not grow)", d.Frame.Func)
	}
}

// TestDepLexerLoop: a lexer's bare for loop emits an item a turn, and
// the EOF item once a run, from the same loop under the same callers (a
// tomlv -reads session, doc/cases/tomlv-reads.md), inside a loop over
// the files that turns once. The EOF's flat calls do not make the
// lexer's a retry loop: a retry loop is entered from elsewhere by the
// request that stays flat (TestDepRetryLoop). The lexer's loop is named,
// not the files' loop.
func TestDepLexerLoop(t *testing.T) {
	at := depsAt(t)
	out := []string{at("main.lexFiles", "lexer.go", 20), "main.main@/src/main.go:9", "runtime.main@/usr/local/go/src/runtime/proc.go:283", goexit}
	http := tracefile.Frame{Func: "net/http.(*Client).Do", File: "/usr/local/go/src/net/http/client.go", Line: 590}
	f := depsTrace(t, http, func(n int) map[*[]string]int {
		item := append([]string{at("main.(*lexer).run", "lexer.go", 13)}, out...)
		eof := append([]string{at("main.(*lexer).run", "lexer.go", 10)}, out...)
		return map[*[]string]int{&item: n, &eof: 1}
	})
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings:\n%s", len(f.Findings), FindingsText(f, 0))
	}
	if d := f.Findings[0]; d.Frame.Func != "main.(*lexer).run" || d.Why != WhyLoop {
		t.Errorf("finding %s (%s), want main.(*lexer).run (loop):\n%s", d.Frame.Func, d.Why, FindingsText(f, 0))
	}
}

// TestDepProbeLoop: a generator adds N alike names to an import
// registry, each probing aliases in a loop with a counter and no
// condition (for i := 0; ; i++), which goes round once per name added
// before it: quadratic. The one name added once a run goes through the
// same loop and stays flat, as a retry loop's ping does
// (TestDepRetryLoop), but a loop that counts its turns is no retry
// loop: the probe is named (mockery, doc/cases/mockery-reads.md).
func TestDepProbeLoop(t *testing.T) {
	at := depsAt(t)
	out := []string{"main.main@/src/main.go:9", "runtime.main@/usr/local/go/src/runtime/proc.go:283", goexit}
	http := tracefile.Frame{Func: "net/http.(*Client).Do", File: "/usr/local/go/src/net/http/client.go", Line: 590}
	f := depsTrace(t, http, func(n int) map[*[]string]int {
		probe := append([]string{at("main.(*Registry).add", "probe.go", 10), at("main.generate", "probe.go", 21)}, out...)
		once := append([]string{at("main.(*Registry).add", "probe.go", 10), at("main.generate", "probe.go", 23)}, out...)
		return map[*[]string]int{&probe: n * (n + 1) / 2, &once: 1}
	})
	if len(f.Findings) == 0 {
		t.Fatalf("no findings")
	}
	if d := f.Findings[0]; d.Frame.Func != "main.(*Registry).add" || d.Why != WhyLoop {
		t.Errorf("finding %s (%s), want main.(*Registry).add (loop):\n%s", d.Frame.Func, d.Why, FindingsText(f, 0))
	}
}
