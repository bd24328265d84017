package tracefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

func loadSample(t testing.TB) []byte {
	data, err := os.ReadFile("../../testdata/traces/marks.suncat")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestReadSample reads a version 1 trace (whole stacks), which the
// reader keeps reading.
func TestReadSample(t *testing.T) {
	data := loadSample(t)
	if v := binary.LittleEndian.Uint32(data[8:]); v != 1 {
		t.Fatalf("the sample is version %d; it must stay a version 1 trace", v)
	}
	tr, err := Decode("marks.suncat", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 7 || len(tr.Marks) != 5 || tr.Torn {
		t.Fatalf("%d events, %d marks, torn %v; want 7, 5, false", len(tr.Events), len(tr.Marks), tr.Torn)
	}
	for _, e := range tr.Events {
		if s := tr.StackOf(e.Stack); s == nil || len(s.Frames) == 0 || s.Frames[0].Func == "" {
			t.Fatalf("event %+v: stack %v", e, s)
		}
	}
}

// v2 returns a copy of the header of good marked as version 2.
func v2(good []byte) []byte {
	b := append([]byte(nil), good[:tracefmt.HeaderSize]...)
	binary.LittleEndian.PutUint32(b[8:], 2)
	return b
}

// TestReadTree decodes version 2 stacks by hand: a new stack of two
// frames, one that shares its parent, one that reuses a node, and a cut
// stack.
func TestReadTree(t *testing.T) {
	data := withRecords(v2(loadSample(t)),
		rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3), // pc 1: m f:3
		rec(tracefmt.RecFrames, 2, 1, 1, 'g', 1, 'f', 9), // pc 2: g f:9
		rec(tracefmt.RecFrames, 3, 1, 1, 'h', 1, 'f', 5), // pc 3: h f:5
		rec(tracefmt.RecString, 1, 1, 1, 'x'),
		rec(tracefmt.RecEvent, 1, 2, 1, 1, 2, 1, 0), // nodes 1 (m), 2 (g under m)
		rec(tracefmt.RecEvent, 1, 1, 2, 3, 1, 0),    // node 3 (h under node 1)
		rec(tracefmt.RecEvent, 1, 0, 2, 1, 0),       // node 2 again (next 4, back 2)
		rec(tracefmt.RecEvent, 1, 2, 4, 0, 2, 1, 0), // nodes 4 (cut), 5 (g under it)
	)
	tr, err := Decode("tree.suncat", data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Events {
		s := tr.StackOf(e.Stack)
		str := ""
		for _, f := range s.Frames {
			str += f.Func + ":" + strconv.Itoa(f.Line) + " "
		}
		if s.Truncated {
			str += "cut"
		}
		got = append(got, str)
	}
	want := []string{"g:9 m:3 ", "h:5 m:3 ", "g:9 m:3 ", "g:9 cut"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("stacks %q, want %q", got, want)
	}
	if len(tr.Stacks) != 3 || tr.Events[0].Stack != tr.Events[2].Stack {
		t.Errorf("%d stacks, events on %d and %d; want 3, the same", len(tr.Stacks), tr.Events[0].Stack, tr.Events[2].Stack)
	}
}

// TestStackWithFirst: a stack read from a trace puts a first frame in
// the room before its frames, without copying them, once; another first
// frame, or a cut, gets a copy; the stack's frames never change.
func TestStackWithFirst(t *testing.T) {
	data := withRecords(v2(loadSample(t)),
		rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3),
		rec(tracefmt.RecFrames, 2, 1, 1, 'g', 1, 'f', 9),
		rec(tracefmt.RecString, 1, 1, 1, 'x'),
		rec(tracefmt.RecEvent, 1, 2, 1, 1, 2, 1, 0), // nodes 1 (m), 2 (g under m)
	)
	tr, err := Decode("tree.suncat", data)
	if err != nil {
		t.Fatal(err)
	}
	st := tr.StackOf(tr.Events[0].Stack)
	before := append([]Frame(nil), st.Frames...)
	first := Frame{Func: "app.Stop.name", File: "main.go", Line: 7}
	got := st.WithFirst(first, 0)
	if len(got) != 1+len(before) || got[0] != first || &got[1] != &st.Frames[0] || cap(got) != len(got) {
		t.Fatalf("WithFirst: %d frames, first %v, shared %v, cap %d; want %d, %v, shared, no room", len(got), got[0], &got[1] == &st.Frames[0], cap(got), 1+len(before), first)
	}
	again := st.WithFirst(first, 0)
	other := st.WithFirst(Frame{Func: "app.Stop.id"}, 0)
	if &again[0] != &got[0] || &other[1] == &st.Frames[0] || other[0].Func != "app.Stop.id" || got[0] != first {
		t.Errorf("the same first frame again: shared %v; another: copied %v, kept %v", &again[0] == &got[0], &other[1] != &st.Frames[0], got[0] == first)
	}
	if cut := st.WithFirst(first, 1); len(cut) != 2 || cut[1] != before[0] {
		t.Errorf("WithFirst(first, 1): %v, want first and the stack's first frame", cut)
	}
	if !slices.Equal(st.Frames, before) {
		t.Errorf("the stack's frames changed: %v, want %v", st.Frames, before)
	}
	var none Stack
	if got := none.WithFirst(first, 0); len(got) != 1 || got[0] != first {
		t.Errorf("an empty stack: %v, want the first frame alone", got)
	}
}

// TestReadZeros: a file of zeros is what a process that died while
// creating its trace could leave; it reads as an empty, torn trace.
func TestReadZeros(t *testing.T) {
	tr, err := Decode("zeros.suncat", make([]byte, 4096))
	if err != nil {
		t.Fatalf("zeros: %v", err)
	}
	if !tr.Torn || len(tr.Events) != 0 {
		t.Errorf("zeros: torn %v, %d events; want torn and empty", tr.Torn, len(tr.Events))
	}
}

func TestReadErrors(t *testing.T) {
	good := loadSample(t)
	le := binary.LittleEndian
	// firstRecord is the offset of the first record after the header.
	const firstRecord = tracefmt.HeaderSize
	mutate := func(f func(b []byte) []byte) []byte {
		b := append([]byte(nil), good...)
		return f(b)
	}
	cases := []struct {
		name string
		data []byte
		want string // substring of the error; "" means no error
		torn bool
	}{
		{"empty", nil, "offset 0: file too short", false},
		{"bad magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), "offset 0: not a suncat trace", false},
		{"bad version", mutate(func(b []byte) []byte { le.PutUint32(b[8:], 99); return b }), "offset 8: unsupported trace version 99", false},
		{"short header", good[:100], "file ends inside the header", false},
		{"unknown kind", mutate(func(b []byte) []byte { b[firstRecord] = 77; return b }), "unknown record kind 77", false},
		{"huge length", mutate(func(b []byte) []byte { le.PutUint32(b[firstRecord:], 1|0xffffff<<8); return b }), "crosses a chunk boundary", false},
		{"huge getter id", withRecords(good, rec(tracefmt.RecGetters, 1, 0x80, 0x80, 0x40, 0, 0, 0, 0, 0, 0)), "getter id 1048576 out of range", false},
		{"undefined stack", withRecords(good, rec(tracefmt.RecString, 1, 1, 1, 'x'), rec(tracefmt.RecEvent, 1, 9, 1, 5)), "event refers to undefined stack 9", false},
		{"undefined string", withRecords(good, rec(tracefmt.RecStack, 1, 0, 0), rec(tracefmt.RecEvent, 1, 1, 4, 5)), "event refers to undefined string 4", false},
		{"stack out of sequence", withRecords(good, rec(tracefmt.RecStack, 3, 0, 0)), "stack id 3 out of sequence (want 1)", false},
		{"string overflows record", withRecords(good, rec(tracefmt.RecString, 1, 9, 9, 'x')), "string value of 9 bytes overflows its record", false},
		{"bad varint", withRecords(good, rec(tracefmt.RecEvent, 0x80)), "bad or truncated varint (getter id)", false},
		{"extra bytes", withRecords(good, rec(tracefmt.RecMark, 1, 0, 0, 7, 7)), "2 unexpected bytes at the end of a record", false},
		{"bad mark kind", withRecords(good, rec(tracefmt.RecMark, 9, 0, 0)), "mark kind 9 out of range", false},
		{"torn record", mutate(func(b []byte) []byte {
			// Zero the commit word of the last record: it was being
			// written when the process died.
			off := lastRecord(b)
			le.PutUint32(b[off:], 0)
			return b
		}), "", true},
	}
	for _, tc := range cases {
		tr, err := Decode("x.suncat", tc.data)
		if err == nil && tr.Damage != nil {
			// A damaged record: what came before it is kept (see
			// TestReadCutAndDamaged); the message is the same.
			err = tr.Damage
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: unexpected error %v", tc.name, err)
			} else if tr.Torn != tc.torn {
				t.Errorf("%s: torn = %v, want %v", tc.name, tr.Torn, tc.torn)
			} else if len(tr.Events) != 6 {
				t.Errorf("%s: %d events kept, want the 6 before the torn one", tc.name, len(tr.Events))
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.suncat: offset ") {
			t.Errorf("%s: error %v, want x.suncat: offset N: ...%s...", tc.name, err, tc.want)
		}
	}
}

// rec encodes one record with the given payload bytes.
func rec(kind byte, payload ...byte) []byte {
	b := make([]byte, 4, 4+len(payload)+3)
	binary.LittleEndian.PutUint32(b, uint32(kind)|uint32(len(payload))<<8)
	b = append(b, payload...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// withRecords returns a trace with the header of good and the records
// recs, followed by zeros.
func withRecords(good []byte, recs ...[]byte) []byte {
	b := append([]byte(nil), good[:tracefmt.HeaderSize]...)
	b = append(b, getterRec()...)
	for _, r := range recs {
		b = append(b, r...)
	}
	return append(b, make([]byte, 64)...)
}

// getterRec is a getter table record of getter 1, p.T.m.
func getterRec() []byte {
	return rec(tracefmt.RecGetters, 1, 1, 1, 'p', 1, 'T', 1, 'm', 1, 'f', 1, 1, 'x')
}

// lastRecord returns the offset of the last record in b.
func lastRecord(b []byte) int {
	off, last := tracefmt.HeaderSize, tracefmt.HeaderSize
	for off+4 <= len(b) {
		w := binary.LittleEndian.Uint32(b[off:])
		if w == 0 {
			break
		}
		last = off
		off += (4 + int(w>>8) + 3) &^ 3
	}
	return last
}

// memoryBudget is what decoding n bytes may allocate: the reader's
// limits (read.go) let the frames of stacks grow to 16 a byte, about 50
// bytes each with their share of the dedup keys, and 262,144 frames
// more; events, values and getters take less than 100 bytes a byte.
func memoryBudget(n int) uint64 {
	return uint64(n)*(16*50+100) + 32<<20
}

// FuzzReader checks that the reader never panics, that any trace it
// accepts is consistent, and that it allocates within memoryBudget.
func FuzzReader(f *testing.F) {
	f.Add(loadSample(f))
	f.Add([]byte(tracefmt.Magic))
	good := loadSample(f)
	f.Add(withRecords(good, rec(tracefmt.RecStack, 1, 0, 1, 1, 'f', 1, 'g', 7), rec(tracefmt.RecString, 1, 9, 1, 'x'), rec(tracefmt.RecEvent, 1, 1, 1, 5), rec(tracefmt.RecMark, 1, 0, 0)))
	f.Add(withRecords(good, rec(tracefmt.RecGetters, 1, 1, 0, 0, 0, 0, 0, 0), rec(tracefmt.RecPad, 0, 0, 0)))
	f.Add(withRecords(v2(good), rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3), rec(tracefmt.RecString, 1, 1, 1, 'x'),
		rec(tracefmt.RecEvent, 1, 2, 1, 1, 1, 1, 0), rec(tracefmt.RecEvent, 1, 0, 1, 1, 0), rec(tracefmt.RecEvent, 1, 1, 3, 0, 1, 0)))
	f.Add(shardTrace(f, 1024,
		[][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 10), rec(tracefmt.RecMark, 1, 2, 5, 1, 'x'), fill},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 12), sameStackEvent(3, 1)},
		[][]byte{chunkOf(0), sameStackEvent(4, 1)}))
	f.Add(v4(shardTrace(f, 1024,
		[][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 10), repeatRec(3), sameStackEvent(3, 10), repeatRec(2), fill},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 15), repeatRec(1), sameStackEvent(1, 1)},
		[][]byte{chunkOf(0), sameStackEvent(1, 1), repeatRec(5)})))
	f.Add(v5(shardTrace(f, 1024,
		[][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 10), batchRec(0, 5, testEntries...), repeatRec(2), fill},
		[][]byte{clockChunk(1), frameM(), strRec('b'), newStackEvent(1, 12), batchRec(60, 1, 0, 2, 7, 8|4, 1, 0)},
		[][]byte{clockChunk(0), batchRec(0, 1, 0, 2, 5<<2)})))
	dir := f.TempDir() // one file, rewritten for each input
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		tr, err := Decode("fuzz.suncat", data)
		runtime.ReadMemStats(&after)
		if got, budget := after.TotalAlloc-before.TotalAlloc, memoryBudget(len(data)); got > budget {
			t.Fatalf("decoding %d bytes allocated %d bytes, over the budget of %d", len(data), got, budget)
		}
		sameFromFile(t, dir, data, tr, err)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.suncat: offset ") {
				t.Fatalf("error without offset: %v", err)
			}
			return
		}
		for _, e := range tr.Events {
			if tr.StackOf(e.Stack) == nil {
				t.Fatalf("event with undefined stack %d", e.Stack)
			}
		}
		// Streaming sees the same records.
		n := 0
		if _, err := DecodeFunc("fuzz.suncat", data, func(*Event, *Marker) error { n++; return nil }); err != nil || n != len(tr.Events)+len(tr.Marks) {
			t.Fatalf("DecodeFunc: %v, %d items; Decode: %d events, %d marks", err, n, len(tr.Events), len(tr.Marks))
		}
	})
}

// readHeader loads the file at p and decodes its header.
func readHeader(p string) (*Trace, error) {
	f, err := Load(p)
	if err != nil {
		return nil, err
	}
	return f.Header()
}

// TestHeader: the header alone, as the whole decode gives it, and the
// same error for a file whose header is bad.
func TestHeader(t *testing.T) {
	for _, p := range []string{"../../testdata/traces/marks.suncat", "../../testdata/traces/busapp.suncat"} {
		h, err := readHeader(p)
		if err != nil {
			t.Fatal(err)
		}
		full, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if h.Path != p || h.Program != full.Program || h.PID != full.PID || !h.Start.Equal(full.Start) || h.Start.IsZero() ||
			len(h.Events)+len(h.Stacks)+len(h.Getters) != 0 {
			t.Errorf("%s: header %+v, want that of %+v", p, h, full)
		}
	}
	dir := t.TempDir()
	good := loadSample(t)
	for name, data := range map[string][]byte{
		"short":   good[:20],
		"magic":   append([]byte("NOTATRCE"), good[8:600]...),
		"version": append(append(append([]byte{}, good[:8]...), 9, 0, 0, 0), good[12:]...),
	} {
		p := dir + "/" + name + ".suncat"
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, herr := readHeader(p)
		_, ferr := ReadFile(p)
		if herr == nil || ferr == nil || herr.Error() != ferr.Error() {
			t.Errorf("%s: Header error %v, ReadFile error %v", name, herr, ferr)
		}
	}
	if _, err := Load(dir + "/missing.suncat"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadTreeTooDeep: a chain of nodes deeper than any writer makes is
// an error, not a stack the reader builds frame by frame.
func TestReadTreeTooDeep(t *testing.T) {
	recs := [][]byte{rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3), rec(tracefmt.RecString, 1, 1, 1, 'x')}
	for i := 0; i < tracefmt.MaxFrames+2; i++ {
		recs = append(recs, rec(tracefmt.RecEvent, 1, 1, 1, 1, 1, 0)) // one node under the last
	}
	tr, err := Decode("deep.suncat", withRecords(v2(loadSample(t)), recs...))
	if err == nil {
		err = tr.Damage // the records before it are kept
	}
	if err == nil || !strings.Contains(err.Error(), "more than 129 nodes") {
		t.Fatalf("error %v, want one about a stack of more than 129 nodes", err)
	}
}

// TestReadCutAndDamaged: the reader tells a whole trace from one cut at
// a chunk boundary or inside a record, and reads everything before a
// damaged record, saying so.
func TestReadCutAndDamaged(t *testing.T) {
	good := loadSample(t)
	le := binary.LittleEndian
	whole, err := Decode("x.suncat", good)
	if err != nil || whole.Cut || whole.Damage != nil || whole.Torn || whole.Problem() != "" {
		t.Fatalf("whole trace: %v, cut %v, damage %v, problem %q", err, whole.Cut, whole.Damage, whole.Problem())
	}
	n := len(whole.Events)
	last := lastRecord(good)
	end := last + (4+int(le.Uint32(good[last:])>>8)+3)&^3

	// Cut at a chunk boundary: the file is one whole chunk (the header
	// says so) full of records, without the zero word a whole trace has.
	chunk := append([]byte(nil), good[:end]...)
	le.PutUint32(chunk[16:], uint32(end))
	tr, err := Decode("x.suncat", chunk)
	if err != nil || !tr.Cut || tr.EventsRead != n || !strings.Contains(tr.Problem(), "cut short") || !strings.Contains(tr.Problem(), "the rest is missing") {
		t.Errorf("cut at a chunk boundary: %v, cut %v, %d events (want %d), %q", err, tr.Cut, tr.EventsRead, n, tr.Problem())
	}
	// The same records with room left in the chunk end with zeros: whole.
	padded := append(append([]byte(nil), chunk...), make([]byte, 8)...)
	le.PutUint32(padded[16:], uint32(len(padded)))
	if tr, err := Decode("x.suncat", padded); err != nil || tr.Cut {
		t.Errorf("whole one-chunk trace: %v, cut %v", err, tr.Cut)
	}

	// Cut inside the last record.
	tr, err = Decode("x.suncat", good[:last+5])
	if err != nil || !tr.Cut || tr.EventsRead != n-1 || !strings.Contains(tr.Problem(), fmt.Sprintf("%d events read", n-1)) {
		t.Errorf("cut mid-record: %v, cut %v, %d events (want %d), %q", err, tr.Cut, tr.EventsRead, n-1, tr.Problem())
	}

	// A damaged record in the middle: the events before it are read.
	mid := firstEventRecord(t, good, 3)
	bad := append([]byte(nil), good...)
	bad[mid] = 77
	tr, err = Decode("x.suncat", bad)
	if err != nil || tr.Damage == nil || len(tr.Events) != 3 || tr.EventsRead != 3 ||
		!strings.Contains(tr.Problem(), fmt.Sprintf("x.suncat: offset %d: unknown record kind 77", mid)) || !strings.Contains(tr.Problem(), "the 3 events before it were read") {
		t.Errorf("damaged record: %v, damage %v, %d events, %q", err, tr.Damage, len(tr.Events), tr.Problem())
	}
	// Streaming sees the same events, and the callback's own error is
	// still an error, not damage.
	count := 0
	tr, err = DecodeFunc("x.suncat", bad, func(ev *Event, mk *Marker) error {
		if ev != nil {
			count++
		}
		return nil
	})
	if err != nil || tr.Damage == nil || count != 3 || tr.EventsRead != 3 {
		t.Errorf("damaged record, streamed: %v, damage %v, %d events", err, tr.Damage, count)
	}
	stop := fmt.Errorf("stop")
	if _, err := DecodeFunc("x.suncat", good, func(*Event, *Marker) error { return stop }); err != stop {
		t.Errorf("callback error: %v", err)
	}
}

// firstEventRecord returns the offset of the record of event i (from 0).
func firstEventRecord(t *testing.T, b []byte, i int) int {
	off := tracefmt.HeaderSize
	for off+4 <= len(b) {
		w := binary.LittleEndian.Uint32(b[off:])
		if w == 0 {
			break
		}
		if byte(w) == tracefmt.RecEvent {
			if i == 0 {
				return off
			}
			i--
		}
		off += (4 + int(w>>8) + 3) &^ 3
	}
	t.Fatalf("no event record %d", i)
	return 0
}

// TestSparseFileBoundedMemory: a trace whose file is 1 GiB long but holds
// a few KiB (a sparse file: a program's mapped chunks never written, or a
// crafted file) is read in memory proportional to its data, not its
// length (os.ReadFile took all of it), with the same events as its data
// alone.
func TestSparseFileBoundedMemory(t *testing.T) {
	data := shardTrace(t, 4096,
		[][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 5), sameStackEvent(1, 5)},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(3, 1)},
	)
	want, err := Decode("x", data)
	if err != nil || len(want.Events) != 3 {
		t.Fatalf("the trace: %v, %d events", err, len(want.Events))
	}
	path := filepath.Join(t.TempDir(), "sparse.suncat")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 1<<30); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := ReadFile(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d KiB allocated", (after.TotalAlloc-before.TotalAlloc)>>10)
	if got := after.TotalAlloc - before.TotalAlloc; got > 32<<20 {
		t.Errorf("reading a 1 GiB file holding %d bytes allocated %d MiB", len(data), got>>20)
	}
	if len(tr.Events) != 3 || tr.Problem() != "" || orderOf(tr)[0] != orderOf(want)[0] {
		t.Errorf("read %d events (%q), want 3 as from its data alone", len(tr.Events), tr.Problem())
	}
}

// TestDeepStackBoundedMemory: a crafted trace in which one return
// address stands for 150,000 frames, used by a hundred events each with a
// stack of its own, drove the reader past 4 GB (a copy of all the frames
// for each stack). It is refused with one line (ErrLimit, not damage read
// in part), in little memory; so is one that stays under the limit per
// return address but makes more stack frames than its size allows.
func TestDeepStackBoundedMemory(t *testing.T) {
	frames := func(pc, n int) []byte {
		p := binary.AppendUvarint(nil, uint64(pc))
		p = binary.AppendUvarint(p, uint64(n))
		for i := 0; i < n; i++ {
			p = append(p, 0, 0, 1) // function "", file "", line 1
		}
		return rec(tracefmt.RecFrames, p...)
	}
	// event i puts a new node under the root, with pc 1.
	events := func(n, depth int) [][]byte {
		var recs [][]byte
		nodes := 1
		for i := 0; i < n; i++ {
			p := []byte{1}
			p = binary.AppendUvarint(p, uint64(depth))
			p = binary.AppendUvarint(p, uint64(nodes)) // back to the root
			for j := 0; j < depth; j++ {
				p = binary.AppendUvarint(p, uint64(1+j%8))
			}
			nodes += depth
			p = append(p, 1, 1, 1) // value 1, sequence delta 1, time delta 1
			recs = append(recs, rec(tracefmt.RecEvent, p...))
		}
		return recs
	}
	huge := shardTrace(t, 1<<20, append([][]byte{chunkOf(0), frames(1, 150000), strRec('a')}, events(100, 1)...))
	// 8 return addresses of 256 frames, and stacks of 8 of them: 2,048
	// frames each, within the limits one at a time.
	var many [][]byte
	many = append(many, chunkOf(0))
	for pc := 1; pc <= 8; pc++ {
		many = append(many, frames(pc, 256))
	}
	many = append(append(many, strRec('a')), events(3000, 8)...)
	wide := shardTrace(t, 1<<20, many)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"150,000 frames for a return address", huge, "pc id 1 stands for 150000 frames, more than the reader's limit of 256"},
		{"stacks beyond the file's size", wide, "its stacks hold more frames than the reader's limit"},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tr, err := Decode("x.suncat", tc.data)
		runtime.ReadMemStats(&after)
		if err == nil || !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			damage := ""
			if tr != nil {
				damage = tr.Problem()
			}
			t.Errorf("%s: err %v (problem %q), want one line with %q", tc.name, err, damage, tc.want)
		}
		t.Logf("%s: %d bytes, %d KiB allocated", tc.name, len(tc.data), (after.TotalAlloc-before.TotalAlloc)>>10)
		if got := after.TotalAlloc - before.TotalAlloc; got > 128<<20 {
			t.Errorf("%s: reading %d bytes allocated %d MiB", tc.name, len(tc.data), got>>20)
		}
	}
}

// TestUnknownGetter: an event of a getter the table lacks (a changed
// byte, as a flipped bit makes) is damage, not an event.
func TestUnknownGetter(t *testing.T) {
	data := withRecords(v2(loadSample(t)),
		rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3),
		rec(tracefmt.RecString, 1, 1, 1, 'x'),
		rec(tracefmt.RecEvent, 1, 1, 1, 1, 1, 0), // getter 1: in the table
		rec(tracefmt.RecEvent, 9, 0, 1, 1, 0),    // getter 9: not
	)
	tr, err := Decode("x.suncat", data)
	if err != nil || len(tr.Events) != 1 || tr.Damage == nil || !strings.Contains(tr.Damage.Error(), "event of getter 9, which the trace's getter table lacks") {
		t.Fatalf("err %v, %d events, damage %v", err, len(tr.Events), tr.Damage)
	}
}

// sameFromFile checks that data read from a file (Load, whose decoding
// reads a chunk's data when a stream enters it) decodes as it does in
// memory: tr and err. It writes the file in dir.
func sameFromFile(t *testing.T, dir string, data []byte, tr *Trace, err error) {
	path := filepath.Join(dir, "fuzz.suncat")
	if werr := os.WriteFile(path, data, 0o600); werr != nil {
		t.Fatal(werr)
	}
	f, ferr := Load(path)
	if ferr != nil {
		t.Fatalf("Load: %v", ferr)
	}
	h, herr := f.Header() // before the decoding: from the bytes Load read
	if _, err := f.HoldsRecords(); err != nil {
		t.Fatalf("HoldsRecords: %v", err)
	}
	ft, ferr := f.Decode()
	if ferr == nil && (herr != nil || h.Program != ft.Program || h.PID != ft.PID || !h.Start.Equal(ft.Start) || len(h.Args) != len(ft.Args)) {
		t.Fatalf("Header: %+v, %v; decoded: %+v", h, herr, ft)
	}
	name := func(e error) string {
		if e == nil {
			return ""
		}
		return strings.ReplaceAll(e.Error(), path, "fuzz.suncat")
	}
	if name(ferr) != name(err) {
		t.Fatalf("from a file: %v; in memory: %v", ferr, err)
	}
	if err == nil && (ft.EventsRead != tr.EventsRead || len(ft.Marks) != len(tr.Marks) || len(ft.Stacks) != len(tr.Stacks) ||
		strings.ReplaceAll(ft.Problem(), path, "fuzz.suncat") != tr.Problem()) {
		t.Fatalf("from a file: %d events, %d marks, %d stacks, %q; in memory: %d, %d, %d, %q",
			ft.EventsRead, len(ft.Marks), len(ft.Stacks), ft.Problem(), tr.EventsRead, len(tr.Marks), len(tr.Stacks), tr.Problem())
	}
}

// TestStackCut: Cut keeps the first n frames in an array of their own,
// with room before them for WithFirst, and the stack is no longer
// Truncated; a stack of n frames or fewer, or n <= 0, is left as it is.
func TestStackCut(t *testing.T) {
	frames := func(k int) []Frame {
		fs := make([]Frame, k)
		for i := range fs {
			fs[i] = Frame{Func: fmt.Sprintf("f%d", i), File: "a.go", Line: i + 1}
		}
		return fs
	}
	long := frames(10)
	s := Stack{ID: 3, Frames: long, Truncated: true, Entry: "main.main"}
	s.Cut(4)
	if len(s.Frames) != 4 || cap(s.Frames) != 4 || s.Frames[3] != long[3] || s.Truncated || s.Entry != "main.main" {
		t.Fatalf("cut to 4: %d frames (cap %d), truncated %v, entry %q", len(s.Frames), cap(s.Frames), s.Truncated, s.Entry)
	}
	if &s.Frames[0] == &long[0] {
		t.Error("the cut frames share the long stack's array")
	}
	field := Frame{Func: "T.f"}
	if fs := s.WithFirst(field, 0); len(fs) != 5 || fs[0] != field || &fs[1] != &s.Frames[0] {
		t.Errorf("WithFirst after Cut: %v (not in the room before the frames)", fs)
	}
	for _, n := range []int{0, -1, 10, 12} {
		u := Stack{Frames: long, Truncated: true}
		u.Cut(n)
		if len(u.Frames) != 10 || &u.Frames[0] != &long[0] || !u.Truncated {
			t.Errorf("Cut(%d) changed a stack of 10 frames", n)
		}
	}
}
