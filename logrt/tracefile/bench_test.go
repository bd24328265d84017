package tracefile

import (
	"os"
	"path/filepath"
	"runtime"
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

// BenchmarkLoadChunks decodes, as a stream, a trace file of 64 chunks
// (64 MiB of records, one shard): the reader must hold the chunk in
// flight, not the file. peak-heap-B is the most heap in use during a
// decode beyond what was in use before it, sampled every 65,536 events
// (garbage included); before chunks were read as streams entered them it
// was above the file's size.
//
//	go test -run '^$' -bench LoadChunks -benchmem ./logrt/tracefile
func BenchmarkLoadChunks(b *testing.B) {
	path, events := chunkedTrace(b, 64)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p := decodePeak(b, path, events); p > peak {
			peak = p
		}
	}
	b.ReportMetric(float64(peak), "peak-heap-B")
	b.ReportMetric(float64(fi.Size()), "file-B")
}

// chunkedTrace writes a synthetic trace of about n chunks of 1 MiB into
// a temporary directory and returns its path and its events.
func chunkedTrace(tb testing.TB, n int) (string, int) {
	s := testtrace.NewSynth("chunks")
	g := s.Getters(8, true)
	stacks := make([][]testtrace.Frame, 16)
	for i := range stacks {
		stacks[i] = []testtrace.Frame{{Func: "p.T.M", File: "/src/p/t.go", Line: i + 1}, {Func: "main.main", File: "/src/main.go", Line: 9}}
	}
	for len(s.Bytes()) < n<<20 { // Bytes copies the trace: not too often
		for j := 0; j < 1<<18; j++ {
			s.Event(g+uint32(j%8), stacks[j%16], strconv.Itoa(j%100), 100)
		}
	}
	path := filepath.Join(tb.TempDir(), "chunks.suncat")
	if err := s.WriteFile(path); err != nil {
		tb.Fatal(err)
	}
	return path, s.Events()
}

// decodePeak loads and decodes the trace at path as a stream and returns
// the most heap in use during it beyond what was in use before.
func decodePeak(tb testing.TB, path string, events int) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, uint64(0)
	sample := func() {
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > base && ms.HeapAlloc-base > peak {
			peak = ms.HeapAlloc - base
		}
	}
	f, err := Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	tr, err := f.DecodeFunc(func(*Event, *Marker) error {
		if n++; n%(1<<16) == 0 {
			sample()
		}
		return nil
	})
	sample()
	if err != nil || tr.EventsRead != events || tr.Problem() != "" {
		tb.Fatalf("decode: %v, %d events of %d, %q", err, tr.EventsRead, events, tr.Problem())
	}
	runtime.KeepAlive(f)
	return peak
}

// TestChunksNotHeld: decoding a trace of 8 chunks holds the chunks in
// flight, not the file (8 MiB and more before chunks were read as
// streams entered them).
func TestChunksNotHeld(t *testing.T) {
	path, events := chunkedTrace(t, 8)
	if peak := decodePeak(t, path, events); peak > 6<<20 {
		t.Errorf("decoding an 8 MiB trace took the heap %d bytes past where it was; want at most 6 MiB", peak)
	}
}
