package instrument

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassify checks every case in testdata/classify/cases.go against
// the verdict written in the comment before it.
func TestClassify(t *testing.T) {
	dir, _ := filepath.Abs("testdata/classify")
	a, err := Analyze(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := readWants(t, filepath.Join(dir, "cases.go"))
	got := map[string]string{}
	for _, g := range a.Getters {
		got[g.Name()] = "getter " + g.Field
	}
	for _, r := range a.Rejected {
		got[r.Name()] = "reject " + r.Why
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
			t.Errorf("%s: reported (%s) but has no verdict in cases.go", name, g)
		}
	}
	// Ids are dense and ordered.
	for i, g := range a.Getters {
		if g.ID != uint32(i+1) {
			t.Errorf("getter %s has id %d, want %d", g.Name(), g.ID, i+1)
		}
	}
	// With -funcs the plain function is a getter too.
	a, err = Analyze(context.Background(), Options{Dir: dir, Funcs: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range a.Getters {
		found = found || g.Name() == "PlainName"
	}
	if !found {
		t.Errorf("-funcs: PlainName not found")
	}
}

// readWants maps each function that has a verdict comment to it.
func readWants(t *testing.T, path string) map[string]string {
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
			want[funcName(line)] = verdict
			verdict = ""
		case !strings.HasPrefix(line, "//"):
			verdict = ""
		}
	}
	return want
}

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
