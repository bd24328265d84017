package prioritize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestDepFrame: a dependency's frame is told by its file's place,
// module@version or vendor/ before its package's path, wherever the
// module cache is (GOMODCACHE anywhere, -trimpath); the main module keeps
// its frames even when copied out of the cache into a directory named
// like one (mailpit@v1.27.11).
func TestDepFrame(t *testing.T) {
	for _, tc := range []struct {
		fn, file string
		dep      bool
	}{
		{"github.com/leporo/sqlf.(*Stmt).Query", "/root/go/pkg/mod/github.com/leporo/sqlf@v1.4.0/executor.go", true},
		{"github.com/leporo/sqlf.(*Stmt).Query", "/cache/gomod/github.com/leporo/sqlf@v1.4.0/executor.go", true},
		{"github.com/leporo/sqlf.(*Stmt).Query", "github.com/leporo/sqlf@v1.4.0/executor.go", true},
		{"gorm.io/gorm/callbacks.Query", "/x/gorm.io/gorm@v1.31.2/callbacks/query.go", true},
		{"gorm.io/gorm.(*processor).Execute", "/x/gorm.io/gorm@v1.31.2/callbacks.go", true},
		{"gopkg.in/yaml%2ev3.(*decoder).unmarshal", "/x/gopkg.in/yaml.v3@v3.0.1/decode.go", true},
		{"github.com/PuerkitoBio/goquery.(*Selection).Each", "/x/github.com/!puerkito!bio/goquery@v1.13.0/iteration.go", true},
		{"github.com/jmoiron/sqlx.(*DB).Select", "/src/app/vendor/github.com/jmoiron/sqlx/sqlx.go", true},
		{"github.com/jmoiron/sqlx.Select[...]", "/x/github.com/jmoiron/sqlx@v1.4.0/sqlx.go", true},
		// a function of another package of the module, inlined into the file
		{"github.com/alecthomas/chroma/v2/lexers.goRules.UsingLexer.func1", "/root/go/pkg/mod/github.com/alecthomas/chroma/v2@v2.27.0/emitters.go", true},
		{"github.com/alecthomas/chroma/v2/lexers.goRules.UsingLexer.func1", "/root/go/pkg/mod/github.com/alecthomas/chroma/v2@v2.27.0/formatters/html.go", true},
		{"github.com/other/x.F", "/root/go/pkg/mod/github.com/alecthomas/chroma/v2@v2.27.0/emitters.go", false},
		// the main module, wherever it is
		{"github.com/axllent/mailpit/internal/storage.List", "/tmp/mailpit@v1.27.11/internal/storage/messages.go", false},
		{"github.com/axllent/mailpit/internal/storage.List", "/tmp/orm/mailpit/internal/storage/messages.go", false},
		{"github.com/axllent/mailpit/internal/storage.List", "github.com/axllent/mailpit/internal/storage/messages.go", false},
		{"main.main", "/x/github.com/axllent/mailpit@v1.27.11/main.go", false},
		{"example.com/app.list", "/home/u/vendor/app/list.go", false},
		{"example.com/app.list", "/home/u@corp/app/list.go", false},
	} {
		if got := depFrame(tracefile.Frame{Func: tc.fn, File: tc.file, Line: 1}); got != tc.dep {
			t.Errorf("depFrame(%s at %s) = %v, want %v", tc.fn, tc.file, got, tc.dep)
		}
	}
}

// TestHookedCallThroughORM: an N+1 made through an ORM that runs the
// query from a loop of its own (gorm's callbacks), in a module cache
// that is not under .../pkg/mod/, is named by the program's loop, not
// the ORM's.
func TestHookedCallThroughORM(t *testing.T) {
	app, err := filepath.Abs(filepath.Join("testdata", "ormapp", "app.go"))
	if err != nil {
		t.Fatal(err)
	}
	gorm, err := filepath.Abs(filepath.Join("testdata", "gomodcache", "gorm.io", "gorm@v1.31.2"))
	if err != nil {
		t.Fatal(err)
	}
	stack := []string{
		"gorm.io/gorm/callbacks.Query@" + gorm + "/callbacks/query.go:20",
		"gorm.io/gorm.(*processor).Execute@" + gorm + "/callbacks.go:8",
		"gorm.io/gorm.(*DB).Find@" + gorm + "/finisher_api.go:4",
		"example.com/app.listPosts@" + app + ":7",
		"main.main@/src/app/main.go:9",
	}
	b := newTrace("orm.suncat")
	for _, n := range []int{5, 10, 20, 40} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"QueryContext", stack, "main.main", "SELECT * FROM comments WHERE post_id = ?"}, n)
	}
	// The event is database/sql's (*DB).QueryContext, recorded there by -calls sql.
	b.tr.Getters[0].Package, b.tr.Getters[0].Receiver, b.tr.Getters[0].Field = "database/sql", "*DB", tracefmt.CallPrefix+"sql"
	b.tr.Stacks[0].Frames[0] = tracefile.Frame{Func: "database/sql.(*DB).QueryContext", File: "/usr/local/go/src/database/sql/sql.go", Line: 1737}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), FindingsText(f, 0))
	}
	d := f.Findings[0]
	if shortFunc(d.Frame.Func) != "app.listPosts" || d.Why != WhyLoop || d.Fit.Class != ClassLinear {
		t.Errorf("finding names %s (%s, %v), want app.listPosts (loop, linear):\n%s", d.Frame.Func, d.Why, d.Fit.Class, FindingsText(f, 0))
	}
}

// TestRecorderFrame: a field read's first frame, suncat's recorder in the
// overlay, is named by the field at the line of the read; a getter's and
// a hooked call's frames stay as recorded.
func TestRecorderFrame(t *testing.T) {
	fs := []tracefile.Frame{
		{Func: "example.com/app/suncatrt.ReadSlice[...]", File: "/src/app/suncatrt/events.go", Line: 77},
		{Func: "main.(*Store).Find", File: "/src/app/main.go", Line: 32},
	}
	read := tracefile.Getter{ID: 1, Package: "example.com/app", Receiver: "Store", Field: "read:[]Task", Method: "tasks"}
	got := recorderFrame(read, fs)
	want := tracefile.Frame{Func: "example.com/app." + read.Name(), File: "/src/app/main.go", Line: 32}
	if got[0] != want || got[1] != fs[1] || fs[0].Func != "example.com/app/suncatrt.ReadSlice[...]" {
		t.Errorf("read: frames %v, want %v first, the rest unchanged, the input untouched", got, want)
	}
	// Version 6 records a read's stack from the reading function: the
	// same frames are shown.
	if got6 := recorderFrame(read, fs[1:]); len(got6) != 2 || got6[0] != want || got6[1] != fs[1] {
		t.Errorf("read without the recorder's frame: frames %v, want %v then %v", got6, want, fs[1])
	}
	// Every terminal keeps its frames for the whole summary: no room
	// left over (an append's doubling once took half a -reads summary's
	// memory).
	deep := make([]tracefile.Frame, 40)
	for i := range deep {
		deep[i] = tracefile.Frame{Func: "main.f", File: "/src/app/main.go", Line: i + 1}
	}
	if got := recorderFrame(read, deep); len(got) != 41 || cap(got) != len(got) {
		t.Errorf("read of a stack of 40 frames: %d frames in room for %d, want 41 in 41", len(got), cap(got))
	}
	getter := tracefile.Getter{ID: 2, Package: "example.com/app", Receiver: "*Stop", Method: "Name", Field: "name"}
	if got := recorderFrame(getter, fs); got[0] != fs[0] {
		t.Errorf("getter: first frame %v, want it as recorded", got[0])
	}
	call := tracefile.Getter{ID: 3, Package: "example.com/app", Method: "Find", Field: "call:RE"}
	if got := recorderFrame(call, fs[1:]); len(got) != 1 || got[0] != fs[1] {
		t.Errorf("call without a recorder's frame: frames %v, want them as recorded", got)
	}
}

// TestMixedActions: labels whose sizes belong to several actions ("loop
// n=100", "hash n=100", ...) are named, and the findings say so and how
// to keep one; labels of one action, or with an action at one size
// only, are not.
func TestMixedActions(t *testing.T) {
	var mixed []string
	for _, n := range []string{"100", "200", "400", "800"} {
		for _, a := range []string{"loop", "hash", "flat"} {
			mixed = append(mixed, a+" n="+n)
		}
	}
	if got := mixedActions(mixed); strings.Join(got, "|") != "loop n=|hash n=|flat n=" {
		t.Errorf("mixedActions(%q) = %q, want the three actions in order", mixed, got)
	}
	files := []string{"select-n1000-4242-20261127T101500.000000000.suncat", "select-n2000-4243-20261127T101501.000000000.suncat",
		"json-n1000-4244-20261127T101502.000000000.suncat", "json-n2000-4245-20261127T101503.000000000.suncat"}
	if got := mixedActions(files); strings.Join(got, "|") != "select-n|json-n" {
		t.Errorf("mixedActions(%q) = %q, want select-n and json-n", files, got)
	}
	for _, one := range [][]string{
		{"n=100", "n=200", "n=400"},
		{"TestFind/n=8", "TestFind/n=16", "TestFind/n=32"},
		{"loop 100", "loop 200", "setup 1"},
		{"loop 100", "hash"},
	} {
		if got := mixedActions(one); got != nil {
			t.Errorf("mixedActions(%q) = %q, want none", one, got)
		}
	}
	f := &Findings{Sizes: []float64{1, 2}, SizesFrom: SizesFromLabels, actions: []string{"loop n=", "hash n="}}
	text := FindingsText(f, 10)
	if want := "-run '^loop n=' keeps one"; !strings.Contains(text, want) || !strings.Contains(text, `"hash n="`) {
		t.Errorf("findings of mixed actions:\n%s\nwant a line naming them and %q", text, want)
	}
	if text := FindingsText(&Findings{Sizes: []float64{1, 2}, SizesFrom: SizesFromLabels}, 10); strings.Contains(text, "actions") {
		t.Errorf("findings of one action name actions:\n%s", text)
	}
}

// TestUnseenText: when the time per sub-trace grows two classes faster
// than every finding, the findings say that what grows records nothing;
// not when a finding keeps up, nor for a time a class apart, nor when
// the time grew less than the sizes did from end to end.
func TestUnseenText(t *testing.T) {
	findings := func(time Class, classes ...Class) *Findings {
		f := &Findings{Sizes: []float64{20, 40, 80, 160}, Used: []bool{true, true, true, true}, SizesFrom: SizesFromLabels,
			TimeNs: []int64{1e8, 4e8, 16e8, 64e8}, Time: Fit{Class: time}, Target: 1600}
		for _, c := range classes {
			f.Findings = append(f.Findings, &Finding{Fit: Fit{Class: c}})
		}
		return f
	}
	noisy := func(time Class, classes ...Class) *Findings {
		f := findings(time, classes...)
		f.TimeNs = []int64{135e6, 134e6, 149e6, 303e6}
		return f
	}
	linear := func(time Class, classes ...Class) *Findings {
		f := findings(time, classes...)
		f.TimeNs = []int64{1e8, 2e8, 4e8, 8e8}
		return f
	}
	for _, tc := range []struct {
		f    *Findings
		want string // "" for none
	}{
		{findings(ClassQuadratic, ClassLinear, ClassLog), "the time grows as quadratic, no finding faster than linear: what grows is in code that records nothing"},
		{findings(ClassCubic, ClassNLogN), "the time grows as cubic, no finding faster than n log n"},
		{findings(ClassQuadratic), "the time grows as quadratic, no call site grows"},
		{findings(ClassQuadratic, ClassLinear, ClassNLogN), ""},
		{findings(ClassQuadratic, ClassQuadratic), ""},
		{findings(ClassNLogN, ClassConstant), "the time grows as n log n, no call site grows"}, // a constant finding does not grow
		{findings(ClassNone, ClassLinear), ""},
		{noisy(ClassCubic, ClassLinear), ""}, // 2.2x the time for 8x the size: a fit's reading of one slow run
		{linear(ClassLinear), "the time grows as linear, no call site grows"},
		{linear(ClassLinear, ClassConstant), "the time grows as linear, no call site grows"},
		{linear(ClassLinear, ClassLinear), ""},
		{noisy(ClassLinear), ""}, // nothing grows, the time 2.2x for 8x the size
	} {
		got := UnseenText(tc.f)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("time %v, findings %v: %q, want %q", tc.f.Time.Class, classesOf(tc.f), got, tc.want)
		}
	}
	// Recorded without -loops, the note says what -loops adds; with
	// loops' turns among the events, it does not.
	f := findings(ClassQuadratic, ClassLinear)
	f.Sites = []*Site{{Getter: tracefile.Getter{Method: "Name", Field: "read:T.Name"}}}
	if got := UnseenText(f); !strings.HasSuffix(got, "; a CPU profile at the largest size shows where, and -loops records every loop's turns (a loop over a local slice reads no field)") {
		t.Errorf("without loops' turns: %q", got)
	}
	f.Sites = append(f.Sites, &Site{Getter: tracefile.Getter{Method: "loop@m.go:3", Field: tracefmt.TurnField}})
	if got := UnseenText(f); !strings.HasSuffix(got, "; a CPU profile at the largest size shows where") {
		t.Errorf("with loops' turns: %q", got)
	}
	text := FindingsText(findings(ClassQuadratic, ClassLinear), 10)
	if !strings.Contains(text, "\n    the time grows as quadratic, no finding faster than linear") {
		t.Errorf("the findings do not say what grows records nothing:\n%s", text)
	}
	fam := &Family{Name: "BenchmarkGenerate", Bench: true, Findings: findings(ClassQuadratic, ClassLinear)}
	if text := FamilyText(fam, 10); !strings.Contains(text, "\n        the time grows as quadratic, no finding faster than linear") {
		t.Errorf("a family's findings do not say what grows records nothing:\n%s", text)
	}
}

func classesOf(f *Findings) []Class {
	var out []Class
	for _, d := range f.Findings {
		out = append(out, d.Fit.Class)
	}
	return out
}

// TestDepMemoInlinedClosure: a closure named after the program's
// function (a dependency's function inlined into it made it) is the
// dependency's when its file lies in a directory where the dependency's
// own frames are; the main module's closures are the program's, even in
// a directory named like a module cache's (TestDepFrame).
func TestDepMemoInlinedClosure(t *testing.T) {
	const dep = "/x/example.com/dep@v1.0.0/dep.go"
	run := tracefile.Frame{Func: "example.com/dep.Run", File: dep, Line: 12}
	closure := tracefile.Frame{Func: "main.main.Using.func1", File: dep, Line: 7}
	mine := tracefile.Frame{Func: "main.main.func1", File: "/tmp/mailpit@v1.27.11/main.go", Line: 9}
	inlined := tracefile.Frame{Func: "main.main.helper.func1", File: "/tmp/mailpit@v1.27.11/main.go", Line: 20}
	site := &Site{Frames: []tracefile.Frame{{Func: "Item.Name"}, closure, run, mine, inlined}}
	deps := newDepMemo([]*Site{site})
	for _, tc := range []struct {
		f    tracefile.Frame
		want bool
	}{{run, true}, {closure, true}, {mine, false}, {inlined, false}} {
		if got := deps.is(tc.f); got != tc.want {
			t.Errorf("%s at %s: dep %v, want %v", tc.f.Func, tc.f.File, got, tc.want)
		}
	}
	// Without the dependency's own frame, its directory is not known.
	if newDepMemo([]*Site{{Frames: []tracefile.Frame{closure}}}).is(closure) {
		t.Errorf("a closure alone made its directory a dependency's")
	}
}
