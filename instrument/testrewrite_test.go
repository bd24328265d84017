package instrument

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

const hookFake = "example.com/m/suncatrt/testhook"

// rewriteTestCases are RewriteTest's cases: a file and the file
// rewritten.
var rewriteTestCases = []struct {
	name, src, want string // want "" means: unchanged
}{
	{
		name: "test, subtest, parallel",
		src: `package m

import "testing"

func TestA(t *testing.T) {
	t.Run("x", func(t *testing.T) {
		t.Parallel()
	})
}
`,
		want: `package m; import __suncattest "example.com/m/suncatrt/testhook"

import "testing"

func TestA(t *testing.T) { __suncattest.Start(t);
	__suncattest.Run(t, "x", func(t *testing.T) {
		__suncattest.Parallel(t)
	})
}
`,
	},
	{
		name: "aliased import, unnamed and blank parameters",
		src: `package m_test

import tt "testing"

func TestA(*tt.T) {}
func TestB(_ *tt.T) { helper(nil) }
func helper(x *tt.T) { x.Run("h", nil) }
`,
		want: `package m_test; import __suncattest "example.com/m/suncatrt/testhook"

import tt "testing"

func TestA(__t *tt.T) { __suncattest.Start(__t);}
func TestB(__t *tt.T) { __suncattest.Start(__t); helper(nil) }
func helper(x *tt.T) { __suncattest.Run(x, "h", nil) }
`,
	},
	{
		name: "benchmarks",
		src: `package m

import "testing"

func BenchmarkA(b *testing.B) {
	b.Run("n", func(b *testing.B) {})
}
`,
		want: `package m; import __suncattest "example.com/m/suncatrt/testhook"

import "testing"

func BenchmarkA(b *testing.B) { __suncattest.Start(b);
	__suncattest.RunB(b, "n", func(b *testing.B) {})
}
`,
	},
	{
		name: "a call split over lines keeps its lines",
		src: `package m

import "testing"

func helper(t *testing.T) {
	t.
		Run("x", func(*testing.T) {})
}
`,
		want: `package m; import __suncattest "example.com/m/suncatrt/testhook"

import "testing"

func helper(t *testing.T) {
	__suncattest.Run(t, 
"x", func(*testing.T) {})
}
`,
	},
	{
		name: "not tests: TestMain, lower-case names, results, methods, receivers of other types",
		src: `package m

import "testing"

type S struct{}

func (S) Run(string, func(*testing.T)) bool { return true }

func Testing(t *testing.T)           {}
func TestR(t *testing.T) bool        { return true }
func (S) TestM(t *testing.T)         {}
func TestTwo(t, u *testing.T)        {}
func helper(s S, t testing.T)        { s.Run("x", nil); t.Run("y", nil) }
func local(t *testing.T)             { u := t; u.Run("x", nil); f := t.Run; _ = f }
func spread(t *testing.T, a []any)   { t.Parallel(1) }
`,
	},
	{
		name: "fuzz tests and their inputs",
		src: `package m

import "testing"

func FuzzA(f *testing.F) {
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) { t.Run(s, nil) })
}
func FuzzB(f *testing.F) { f.Fuzz(func(_ *testing.T, b []byte) {}) }
func FuzzC(f *testing.F) { f.Fuzz(named) }
func named(t *testing.T, s string) {}
func FuzzD(f *testing.F) { f.Fuzz(func(*testing.T, int, []byte) {}) }
`,
		want: `package m; import __suncattest "example.com/m/suncatrt/testhook"

import "testing"

func FuzzA(f *testing.F) { __suncattest.Start(f);
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) { __suncattest.Start(t); __suncattest.Run(t, s, nil) })
}
func FuzzB(f *testing.F) { __suncattest.Start(f); f.Fuzz(func(__t *testing.T, b []byte) { __suncattest.Start(__t);}) }
func FuzzC(f *testing.F) { __suncattest.Start(f); f.Fuzz(named) }
func named(t *testing.T, s string) {}
func FuzzD(f *testing.F) { __suncattest.Start(f); f.Fuzz(func(__t *testing.T, _ int, _ []byte) { __suncattest.Start(__t);}) }
`,
	},
	{
		name: "examples, with or without the testing import",
		src: `package m_test

import "fmt"

func Example() { fmt.Println("x") }
func ExampleThing_Name() {
	// Output:
}
func Examples() {}
func ExampleArg(n int) {}
func ExampleResult() int { return 1 }
`,
		want: `package m_test; import __suncattest "example.com/m/suncatrt/testhook"

import "fmt"

func Example() { __suncattest.Label("Example"); fmt.Println("x") }
func ExampleThing_Name() { __suncattest.Label("ExampleThing_Name");
	// Output:
}
func Examples() {}
func ExampleArg(n int) {}
func ExampleResult() int { return 1 }
`,
	},
	{
		name: "TestMain, before and after m.Run; cleanups",
		src: `package m

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	setup()
	code := m.Run()
	os.Exit(code)
}
func helper(m *testing.M) int { return m.Run() }
func TestC(t *testing.T) { t.Cleanup(func() {}) }
func BenchmarkC(b *testing.B) { b.Cleanup(nil) }
`,
		want: `package m; import __suncattest "example.com/m/suncatrt/testhook"

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { __suncattest.Label("TestMain");
	setup()
	code := __suncattest.MainRun(m)
	os.Exit(code)
}
func helper(m *testing.M) int { return __suncattest.MainRun(m) }
func TestC(t *testing.T) { __suncattest.Start(t); __suncattest.Cleanup(t, func() {}) }
func BenchmarkC(b *testing.B) { __suncattest.Start(b); __suncattest.Cleanup(b, nil) }
`,
	},
	{
		name: "no testing import",
		src:  "package m\n\nfunc TestA(t *T) { t.Run(\"x\", nil) }\n",
	},
	{
		name: "dot import",
		src:  "package m\n\nimport . \"testing\"\n\nfunc TestA(t *T) {}\n",
	},
}

func TestRewriteTest(t *testing.T) {
	for _, tt := range rewriteTestCases {
		t.Run(tt.name, func(t *testing.T) {
			out, changed, err := RewriteTest("m_test.go", []byte(tt.src), hookFake)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = tt.src
			}
			if changed != (tt.want != "") {
				t.Errorf("changed = %v", changed)
			}
			if string(out) != want {
				t.Errorf("got:\n%s\nwant:\n%s", out, want)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "m_test.go", out, 0); err != nil {
				t.Errorf("output does not parse: %v", err)
			}
		})
	}
}

func TestRewriteTestSyntaxError(t *testing.T) {
	if _, _, err := RewriteTest("m_test.go", []byte("package m\nfunc {"), hookFake); err == nil {
		t.Error("no error for a file that does not parse")
	}
}

func FuzzRewriteTest(f *testing.F) {
	f.Add("package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { t.Run(\"x\", func(t *testing.T) { t.Parallel() }) }\n")
	f.Add("package m\nimport tt \"testing\"\nfunc TestB(_ *tt.T) {}\nfunc BenchmarkC(*tt.B) {}\n")
	f.Add("package m\nimport \"testing\"\nfunc h(t *testing.T) { t.\n/* c\n */Run(\"a\",\nnil) }\n")
	f.Add("package m\nimport \"testing\"\nfunc FuzzD(f *testing.F) { f.Fuzz(func(*testing.T, int) {}) }\nfunc Example() {}\n")
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		if _, err := parser.ParseFile(token.NewFileSet(), "m_test.go", src, 0); err != nil {
			return
		}
		out, changed, err := RewriteTest("m_test.go", src, hookFake)
		if err != nil {
			t.Fatalf("a file that parses was refused: %v", err)
		}
		if !changed {
			if !bytes.Equal(out, src) {
				t.Fatal("unchanged file came back different")
			}
			return
		}
		if a, b := bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")); a != b {
			t.Fatalf("%d lines became %d:\n%s", a, b, out)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "m_test.go", out, 0); err != nil {
			t.Fatalf("rewritten file does not parse: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), hookName+".") {
			t.Fatal("changed, but no hook call")
		}
	})
}

// TestTestingName: the name a test file gives package testing, which
// RewriteTest recognizes parameter types by.
func TestTestingName(t *testing.T) {
	cases := []struct{ imports, want string }{
		{`import "testing"`, "testing"},
		{`import tt "testing"`, "tt"},
		{`import ( "fmt"; t2 "testing" )`, "t2"},
		{`import "fmt"`, ""},
		{`import _ "testing"`, ""},
		{`import . "testing"`, ""},
		{`import "example.com/testing"`, ""},
	}
	for _, tc := range cases {
		f, err := parser.ParseFile(token.NewFileSet(), "m_test.go", "package m; "+tc.imports, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := importedAs(f, "testing"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.imports, got, tc.want)
		}
	}
}

// TestHookFor: which method calls on which testing types go through which
// hook.
func TestHookFor(t *testing.T) {
	cases := []struct {
		testing, method string
		nargs           int
		recv, want      string
	}{
		{"testing", "Run", 2, "*testing.T", "Run"},
		{"testing", "Run", 2, "*testing.B", "RunB"},
		{"testing", "Run", 0, "*testing.M", "MainRun"},
		{"testing", "Run", 1, "*testing.T", ""},
		{"testing", "Run", 2, "*testing.F", ""},
		{"testing", "Parallel", 0, "*testing.T", "Parallel"},
		{"testing", "Parallel", 0, "*testing.B", ""},
		{"testing", "Cleanup", 1, "*testing.T", "Cleanup"},
		{"testing", "Cleanup", 1, "*testing.B", "Cleanup"},
		{"testing", "Cleanup", 1, "*testing.F", "Cleanup"},
		{"testing", "Cleanup", 1, "*testing.M", ""},
		{"testing", "Log", 1, "*testing.T", ""},
		{"testing", "Run", 2, "testing.T", ""}, // not a pointer
		{"testing", "Run", 2, "*tt.T", ""},     // another package
		{"tt", "Run", 2, "*tt.T", "Run"},
		{"", "Run", 2, "*testing.T", ""}, // testing not imported (or as . or _)
	}
	for _, tc := range cases {
		recv, err := parser.ParseExpr(tc.recv)
		if err != nil {
			t.Fatal(err)
		}
		r := &testRewriter{testing: tc.testing}
		if got := r.hookFor(tc.method, tc.nargs, recv); got != tc.want {
			t.Errorf("%s (%s) with %d argument(s), testing as %q: hook %q, want %q", tc.method, tc.recv, tc.nargs, tc.testing, got, tc.want)
		}
	}
}
