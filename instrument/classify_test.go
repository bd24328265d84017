package instrument

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassify checks every case in testdata/classify (cases.go, the
// protoc-gen-go shaped busv1/stop.pb.go, and the stand-in runtime it
// uses) against the verdict written in the comment before each function.
func TestClassify(t *testing.T) {
	dir, _ := filepath.Abs("testdata/classify")
	// NoCache: the verdicts must come from this classifier, not from an
	// analysis cached by an older one.
	a, err := Analyze(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*.go"))
	deeper, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.go"))
	for _, f := range append(append(files, more...), deeper...) {
		pkg := filepath.Base(filepath.Dir(f)) // the last element of its import path
		for name, w := range readWants(t, f, pkg) {
			want[name] = w
		}
	}
	if len(want) < 40 {
		t.Fatalf("read only %d verdicts from %s", len(want), dir)
	}
	got := map[string]string{}
	for _, g := range a.Getters {
		got[lastElem(g.PkgPath)+"."+g.Name()] = "getter " + g.Field
	}
	for _, r := range a.Rejected {
		got[lastElem(r.PkgPath)+"."+r.Name()] = "reject " + r.Why
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: not reported, want %s", name, w)
		case strings.HasPrefix(w, "getter "):
			if g != w {
				t.Errorf("%s: %s, want %s", name, g, w)
			}
		case !strings.HasPrefix(g, "reject ") || !strings.Contains(g, strings.TrimPrefix(w, "reject ")):
			t.Errorf("%s: %s, want %s", name, g, w)
		}
	}
	for name, g := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: reported (%s) but has no verdict in testdata/classify", name, g)
		}
	}
	// Ids are dense and ordered.
	for i, g := range a.Getters {
		if g.ID != uint32(i+1) {
			t.Errorf("getter %s has id %d, want %d", g.Name(), g.ID, i+1)
		}
	}
	// With -funcs the plain function is a getter too.
	a, err = Analyze(context.Background(), Options{Dir: dir, Funcs: true, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range a.Getters {
		found = found || g.Name() == "PlainName" && g.Field == "name"
	}
	if !found {
		t.Errorf("-funcs: PlainName not found")
	}
}

// readWants maps each function of the file at path that has a verdict
// comment to it, by "pkg.(*Recv).Method".
func readWants(t *testing.T, path, pkg string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	verdict := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "// getter ") || strings.HasPrefix(line, "// reject "):
			verdict = strings.TrimPrefix(line, "// ")
		case strings.HasPrefix(line, "func ") && verdict != "":
			want[pkg+"."+funcName(line)] = verdict
			verdict = ""
		case !strings.HasPrefix(line, "//"):
			verdict = ""
		}
	}
	return want
}

func lastElem(p string) string { return p[strings.LastIndex(p, "/")+1:] }

// funcName turns "func (s *Stop) Name() string {" into "(*Stop).Name".
func funcName(line string) string {
	line = strings.TrimPrefix(line, "func ")
	if strings.HasPrefix(line, "(") {
		end := strings.Index(line, ")")
		recv := strings.Fields(line[1:end])
		r := recv[len(recv)-1]
		rest := strings.TrimSpace(line[end+1:])
		name := rest[:strings.IndexAny(rest, "([")]
		if strings.HasPrefix(r, "*") {
			return "(" + r + ")." + name
		}
		return r + "." + name
	}
	return line[:strings.IndexAny(line, "([")]
}

func TestCoveredCompilerOutput(t *testing.T) {
	typeErrs := map[string]bool{
		errorKey("/m/broken/b.go:3:26", "undefined: nosuch"):       true,
		errorKey("/m/broken/c.go:4:2", "declared and not used: x"): true,
	}
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"# example.com/m/broken\n./b.go:3:26: undefined: nosuch\n", true},
		{"# example.com/m/broken\n./b.go:3:26: undefined: nosuch\n./c.go:4:2: declared and not used: x\n./b.go:9:1: too many errors", true},
		// An error only the compiler saw.
		{"# example.com/m/broken\n./b.go:3:26: undefined: nosuch\n./d.go:5:6: missing function body", false},
		// Same place, another message.
		{"# example.com/m/broken\n./b.go:3:26: undefined: other", false},
		// Not compiler output.
		{"no required module provides package example.com/x", false},
		{"# example.com/m/broken", false},
	} {
		if got := coveredCompilerOutput(tc.msg, typeErrs); got != tc.want {
			t.Errorf("coveredCompilerOutput(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}
