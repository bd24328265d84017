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
