package prioritize

import (
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Hints name only the flags the events were not recorded with, and the
// events by their kind.
func TestRecordedWords(t *testing.T) {
	getter := tracefile.Getter{Package: "example.com/m", Receiver: "*T", Method: "Name", Field: "name"}
	read := tracefile.Getter{Package: "example.com/m", Receiver: "T", Method: "tags", Field: "read:[]string"}
	sql := tracefile.Getter{Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: "call:sql"}
	turn := tracefile.Getter{Package: "example.com/m", Method: "loop@split.go:4", Field: tracefmt.TurnField}
	for _, tc := range []struct {
		gs         []tracefile.Getter
		noun, hint string
	}{
		{[]tracefile.Getter{getter}, "getter call", "-reads records field reads, -calls sql database queries"},
		{[]tracefile.Getter{sql}, "call", "-reads records field reads"},
		{[]tracefile.Getter{read}, "field read", "-calls sql database queries"},
		{[]tracefile.Getter{read, sql}, "event", ""},
		// a loop's turn (-loops) is recorded as a read, and is no field read
		{[]tracefile.Getter{turn}, "loop turn", "-reads records field reads, -calls sql database queries"},
		{[]tracefile.Getter{turn, read}, "event", "-calls sql database queries"},
	} {
		r := recordedOf(tc.gs)
		if r.noun() != tc.noun || r.flagHint() != tc.hint {
			t.Errorf("%v: noun %q, hint %q; want %q, %q", tc.gs, r.noun(), r.flagHint(), tc.noun, tc.hint)
		}
	}
}

// A call hooked in database/sql starts at the hooked method: suncat's
// hook frame (suncatCall, a line no Go release has) is left out.
func TestRecorderFrameHook(t *testing.T) {
	g := tracefile.Getter{Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: "call:sql"}
	fs := []tracefile.Frame{
		{Func: "database/sql.suncatCall", File: "/go/src/database/sql/sql.go", Line: 3686},
		{Func: "database/sql.(*DB).QueryContext", File: "/go/src/database/sql/sql.go", Line: 1700},
		{Func: "main.list", File: "/src/app/list.go", Line: 9},
	}
	got := recorderFrame(g, fs)
	if len(got) != 2 || got[0] != fs[1] || got[1] != fs[2] {
		t.Errorf("frames %v, want %v", got, fs[1:])
	}
	getter := tracefile.Getter{Package: "example.com/m", Receiver: "*T", Method: "Name", Field: "name"}
	if got := recorderFrame(getter, fs); len(got) != 3 {
		t.Errorf("a getter's frames changed: %v", got)
	}
}
