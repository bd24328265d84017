package prioritize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// TestWheres: terminals whose call sites read the same (one getter
// called from one line, reached by two paths) are told apart by the frame
// where their stacks part; the others read as Where says.
func TestWheres(t *testing.T) {
	fr := func(fn, file string, line int) tracefile.Frame {
		return tracefile.Frame{Func: fn, File: file, Line: line}
	}
	getter := fr("example.com/viper.(*Viper).ConfigFileUsed", "/m/viper.go", 10)
	caller := fr("example.com/viper.ConfigFileUsed", "/m/viper.go", 448)
	ts := []*Terminal{
		{Name: "(*Viper).ConfigFileUsed", Frames: []tracefile.Frame{getter, caller, fr("main.main", "/m/main.go", 456)}},
		{Name: "(*Viper).ConfigFileUsed", Frames: []tracefile.Frame{getter, caller, fr("main.main", "/m/main.go", 457)}},
		{Name: "(*Viper).ConfigFileUsed", Frames: []tracefile.Frame{getter, fr("main.other", "/m/main.go", 9)}},
		{Name: "(*Stop).Name", Frames: []tracefile.Frame{getter, caller, fr("main.main", "/m/main.go", 456)}},
	}
	want := []string{
		"viper.ConfigFileUsed (viper.go:448) from main.main (main.go:456)",
		"viper.ConfigFileUsed (viper.go:448) from main.main (main.go:457)",
		"main.other (main.go:9)",
		"viper.ConfigFileUsed (viper.go:448)", // another getter: its name tells it apart
	}
	got := Wheres(ts)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("terminal %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// TestFewEventsNote: findings over a handful of getter calls per
// sub-trace say that work without getters is not seen; more calls, or a
// sub-trace the fits leave out, do not.
func TestFewEventsNote(t *testing.T) {
	f := &Findings{Sizes: []float64{1, 2, 4}, SizesFrom: SizesFromLabels, Used: []bool{true, true, false}, Sites: []*Site{
		{Counts: []int{1, 1, 100}}, {Counts: []int{2, 2, 100}},
	}}
	if note := f.FewEventsNote(); !strings.HasPrefix(note, "only 3 getter call(s) per sub-trace at most") {
		t.Errorf("note %q", note)
	}
	if !strings.Contains(FindingsText(f, 10), "only 3 getter call(s)") {
		t.Errorf("findings text without the note:\n%s", FindingsText(f, 10))
	}
	f.Used[2] = true
	if note := f.FewEventsNote(); note != "" {
		t.Errorf("with 200 calls in a sub-trace: note %q", note)
	}
}

// TestCoversTextKinds: a finding of field reads or calls does not count
// them as getters.
func TestCoversTextKinds(t *testing.T) {
	site := func(name, field string) *Site {
		return &Site{Name: name, Getter: tracefile.Getter{Method: name, Field: field}}
	}
	for _, c := range []struct {
		sites []*Site
		want  string
	}{
		{[]*Site{site("(*Stop).Name", "name"), site("(*Stop).Code", "code")}, "2 getters, 1 caller"},
		{[]*Site{site("Task.Name", "read:Name"), site("Store.tasks", "read:tasks")}, "2 field reads, 1 caller"},
		{[]*Site{site("(*DB).QueryContext", "call:sql"), site("(*Client).Do", "call:http")}, "2 calls, 1 caller"},
		{[]*Site{site("(*DB).QueryContext", "call:sql"), site("Store.tasks", "read:tasks")}, "2 events, 1 caller"},
		{[]*Site{site("(*Session).Title", "title"), site("(*Session).Room", "room")}, "2 getters"},
	} {
		d := &Finding{Sites: c.sites, Callers: []string{"main.run"}}
		if strings.HasSuffix(c.want, "getters") {
			d.Callers = nil // no caller: not "0 callers"
		}
		for _, s := range c.sites {
			d.Getters = append(d.Getters, s.Name)
		}
		if got := CoversText(d); got != c.want {
			t.Errorf("CoversText = %q, want %q", got, c.want)
		}
	}
}

// TestWhereHookedCall: a call recorded inside database/sql is placed at
// the program's line that made it, past the standard library's frames
// (and a dependency's), not at the hook in sql.go.
func TestWhereHookedCall(t *testing.T) {
	sql := "/usr/local/go/src/database/sql/sql.go"
	term := &Terminal{
		Name:   "(*DB).QueryContext",
		Getter: tracefile.Getter{Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: "call:sql"},
		Frames: []tracefile.Frame{
			{Func: "database/sql.suncatCall", File: sql, Line: 3686},
			{Func: "database/sql.(*DB).QueryContext", File: sql, Line: 1737},
			{Func: "github.com/jmoiron/sqlx.(*DB).Get", File: "/go/pkg/mod/github.com/jmoiron/sqlx@v1.4.0/sqlx.go", Line: 90},
			{Func: "main.loadItems", File: "/src/app/main.go", Line: 122},
			{Func: "main.run", File: "/src/app/main.go", Line: 77},
		},
	}
	if got, want := Where(term), "main.loadItems (main.go:122)"; got != want {
		t.Errorf("Where = %q, want %q", got, want)
	}
	getter := &Terminal{Name: "(*Stop).Name", Frames: term.Frames[3:]}
	if got, want := Where(getter), "main.run (main.go:77)"; got != want {
		t.Errorf("a getter's Where = %q, want %q", got, want)
	}
}

// TestFindingLinesManyFields: a finding of 77 field reads names two
// and counts the rest, in the summary's lines and the viewer's parts,
// instead of listing all 77 on one line; four names are listed whole.
func TestFindingLinesManyFields(t *testing.T) {
	finding := func(n int) (*Findings, *Finding) {
		d := &Finding{Fit: Fit{Class: ClassLinear, Outlier: -1}, Counts: []int{1, 2, 4, 8}, Callers: []string{"main.run"}}
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("Var.f%d", i)
			d.Sites = append(d.Sites, &Site{Name: name, Getter: tracefile.Getter{Method: name, Field: "read:f"}})
			d.Getters = append(d.Getters, name)
		}
		return &Findings{Used: []bool{true, true, true, true}, Sizes: []float64{1, 2, 4, 8}, Target: 80}, d
	}
	f, d := finding(77)
	lines := FindingLines(f, d, 1)
	if want := "    77 field reads, 1 caller: Var.f0, Var.f1, +75 fields; from main.run\n"; !strings.HasSuffix(lines, want) {
		t.Errorf("77 fields:\n%s\nwant it to end in\n%s", lines, want)
	}
	if p := FindingParts(f, d); p.Getters != "Var.f0, Var.f1, +75 fields" || p.More != "Var.f0 +76" || p.Counts != "1|2|4|8" {
		t.Errorf("parts %+v", p)
	}
	f, d = finding(4)
	if got := FindingParts(f, d).Getters; got != "Var.f0, Var.f1, Var.f2, Var.f3" {
		t.Errorf("4 fields: %q, want all four", got)
	}
}
