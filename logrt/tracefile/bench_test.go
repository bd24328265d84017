package tracefile

import (
	"strconv"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
)

// BenchmarkGetterTable decodes a trace whose getter table has 25,000
// entries (what -reads -deps makes of a large program), written a getter
// a record, with one event of each getter: the table must grow in
// linear time.
//
//	go test -run '^$' -bench GetterTable -benchmem ./logrt/tracefile
func BenchmarkGetterTable(b *testing.B) {
	const n = 25000
	s := testtrace.NewSynth("getters")
	first := s.Getters(n, true)
	stack := []testtrace.Frame{{Func: "p.T.M", File: "/src/p/t.go", Line: 1}, {Func: "main.main", File: "/src/main.go", Line: 9}}
	for i := 0; i < n; i++ {
		s.Event(first+uint32(i), stack, strconv.Itoa(i%10), 100)
	}
	data := s.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := DecodeFunc("getters.suncat", data, func(*Event, *Marker) error { return nil })
		if err != nil || tr.EventsRead != n || len(tr.Getters) != n {
			b.Fatalf("decode: %v, %d events, %d getters", err, tr.EventsRead, len(tr.Getters))
		}
	}
	b.ReportMetric(float64(n), "getters")
}

// TestDecodeTraceFunc: fn gets the trace being decoded, whose getter
// table holds each event's getter when fn gets the event, and which is
// the trace returned.
func TestDecodeTraceFunc(t *testing.T) {
	s := testtrace.NewSynth("getters")
	stack := []testtrace.Frame{{Func: "p.T.M", File: "/src/p/t.go", Line: 1}}
	g1 := s.Getters(1, true)
	s.Event(g1, stack, "a", 1)
	g2 := s.Getters(1, true)
	s.Event(g2, stack, "b", 1)
	path := t.TempDir() + "/t.suncat"
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var seen *Trace
	var tables []int
	got, err := f.DecodeTraceFunc(func(tr *Trace, ev *Event, mk *Marker) error {
		seen = tr
		if g, ok := tr.GetterOf(ev.Getter); !ok || g.Method != "M"+strconv.Itoa(int(ev.Getter)) {
			t.Errorf("event of getter %d: table %+v", ev.Getter, tr.Getters)
		}
		tables = append(tables, len(tr.Getters))
		return nil
	})
	if err != nil || got != seen || len(tables) != 2 || tables[0] != 1 || tables[1] != 2 {
		t.Fatalf("err %v, same trace %v, tables %v; want [1 2]", err, got == seen, tables)
	}
}
