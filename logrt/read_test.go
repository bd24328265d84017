package logrt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

func loadSample(t testing.TB) []byte {
	data, err := os.ReadFile("../testdata/traces/marks.suncat")
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
	b := append([]byte(nil), good[:headerSize]...)
	binary.LittleEndian.PutUint32(b[8:], 2)
	return b
}

// TestReadTree decodes version 2 stacks by hand: a new stack of two
// frames, one that shares its parent, one that reuses a node, and a cut
// stack.
func TestReadTree(t *testing.T) {
	data := withRecords(v2(loadSample(t)),
		rec(kindFrames, 1, 1, 1, 'm', 1, 'f', 3), // pc 1: m f:3
		rec(kindFrames, 2, 1, 1, 'g', 1, 'f', 9), // pc 2: g f:9
		rec(kindFrames, 3, 1, 1, 'h', 1, 'f', 5), // pc 3: h f:5
		rec(kindString, 1, 1, 1, 'x'),
		rec(kindEvent, 1, 2, 1, 1, 2, 1, 0), // nodes 1 (m), 2 (g under m)
		rec(kindEvent, 1, 1, 2, 3, 1, 0),    // node 3 (h under node 1)
		rec(kindEvent, 1, 0, 2, 1, 0),       // node 2 again (next 4, back 2)
		rec(kindEvent, 1, 2, 4, 0, 2, 1, 0), // nodes 4 (cut), 5 (g under it)
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
			str += f.Func + ":" + itoa(f.Line) + " "
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
	const firstRecord = headerSize
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
		{"huge getter id", withRecords(good, rec(kindGetters, 1, 0x80, 0x80, 0x40, 0, 0, 0, 0, 0, 0)), "getter id 1048576 out of range", false},
		{"undefined stack", withRecords(good, rec(kindString, 1, 1, 1, 'x'), rec(kindEvent, 1, 9, 1, 5)), "event refers to undefined stack 9", false},
		{"undefined string", withRecords(good, rec(kindStack, 1, 0, 0), rec(kindEvent, 1, 1, 4, 5)), "event refers to undefined string 4", false},
		{"stack out of sequence", withRecords(good, rec(kindStack, 3, 0, 0)), "stack id 3 out of sequence (want 1)", false},
		{"string overflows record", withRecords(good, rec(kindString, 1, 9, 9, 'x')), "string value of 9 bytes overflows its record", false},
		{"bad varint", withRecords(good, rec(kindEvent, 0x80)), "bad or truncated varint (getter id)", false},
		{"extra bytes", withRecords(good, rec(kindMark, 1, 0, 0, 7, 7)), "2 unexpected bytes at the end of a record", false},
		{"bad mark kind", withRecords(good, rec(kindMark, 9, 0, 0)), "mark kind 9 out of range", false},
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
	b := append([]byte(nil), good[:headerSize]...)
	for _, r := range recs {
		b = append(b, r...)
	}
	return append(b, make([]byte, 64)...)
}

// lastRecord returns the offset of the last record in b.
func lastRecord(b []byte) int {
	off, last := headerSize, headerSize
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

// FuzzReader checks that the reader never panics and that any trace it
// accepts is consistent.
func FuzzReader(f *testing.F) {
	f.Add(loadSample(f))
	f.Add([]byte(magic))
	good := loadSample(f)
	f.Add(withRecords(good, rec(kindStack, 1, 0, 1, 1, 'f', 1, 'g', 7), rec(kindString, 1, 9, 1, 'x'), rec(kindEvent, 1, 1, 1, 5), rec(kindMark, 1, 0, 0)))
	f.Add(withRecords(good, rec(kindGetters, 1, 1, 0, 0, 0, 0, 0, 0), rec(kindPad, 0, 0, 0)))
	f.Add(withRecords(v2(good), rec(kindFrames, 1, 1, 1, 'm', 1, 'f', 3), rec(kindString, 1, 1, 1, 'x'),
		rec(kindEvent, 1, 2, 1, 1, 1, 1, 0), rec(kindEvent, 1, 0, 1, 1, 0), rec(kindEvent, 1, 1, 3, 0, 1, 0)))
	f.Add(shardTrace(f, 1024,
		[][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 10), rec(kindMark, 1, 2, 5, 1, 'x'), fill},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 12), sameStackEvent(3, 1)},
		[][]byte{chunkOf(0), sameStackEvent(4, 1)}))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Decode("fuzz.suncat", data)
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

// TestDecodeFunc: streaming gives the same events and marks, in the same
// order, as Decode, on the sample and on a recorded trace of distinct
// values; and an error from the callback stops decoding.
func TestDecodeFunc(t *testing.T) {
	sample := loadSample(t)
	long := runProg(t, "loops", 2000)
	recorded, err := os.ReadFile(long.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"sample", sample}, {"loops", recorded}} {
		whole, err := Decode(tc.name, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		var evs []Event
		var mks []Marker
		var order []uint64
		part, err := DecodeFunc(tc.name, tc.data, func(ev *Event, mk *Marker) error {
			if (ev == nil) == (mk == nil) {
				t.Fatalf("%s: want exactly one of event and mark", tc.name)
			}
			if ev != nil {
				evs = append(evs, *ev)
				order = append(order, ev.Seq)
			} else {
				mks = append(mks, *mk)
				order = append(order, mk.Seq)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(part.Events) != 0 || len(part.Marks) != 0 || len(part.Stacks) != len(whole.Stacks) || len(part.Getters) != len(whole.Getters) {
			t.Errorf("%s: streamed trace keeps %d events, %d marks, %d stacks, %d getters", tc.name, len(part.Events), len(part.Marks), len(part.Stacks), len(part.Getters))
		}
		if !reflect.DeepEqual(evs, whole.Events) || !reflect.DeepEqual(mks, whole.Marks) {
			t.Errorf("%s: streamed events or marks differ from Decode's", tc.name)
		}
		for i := range order {
			if order[i] != uint64(i) {
				t.Fatalf("%s: item %d has seq %d", tc.name, i, order[i])
			}
		}
		if len(evs) == 0 || len(mks) == 0 {
			t.Errorf("%s: %d events, %d marks: the test needs both", tc.name, len(evs), len(mks))
		}
	}
	stop := errors.New("enough")
	n := 0
	_, err = DecodeFunc("x", sample, func(*Event, *Marker) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("callback error: got %v after %d calls, want %v after 3", err, n, stop)
	}
}

// TestReadHeader: the header alone, as the whole decode gives it, and the
// same error for a file whose header is bad.
func TestReadHeader(t *testing.T) {
	for _, p := range []string{"../testdata/traces/marks.suncat", "../testdata/traces/busapp.suncat"} {
		h, err := ReadHeader(p)
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
		_, herr := ReadHeader(p)
		_, ferr := ReadFile(p)
		if herr == nil || ferr == nil || herr.Error() != ferr.Error() {
			t.Errorf("%s: ReadHeader error %v, ReadFile error %v", name, herr, ferr)
		}
	}
	if _, err := ReadHeader(dir + "/missing.suncat"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadTreeTooDeep: a chain of nodes deeper than any writer makes is
// an error, not a stack the reader builds frame by frame.
func TestReadTreeTooDeep(t *testing.T) {
	recs := [][]byte{rec(kindFrames, 1, 1, 1, 'm', 1, 'f', 3), rec(kindString, 1, 1, 1, 'x')}
	for i := 0; i < maxFrames+2; i++ {
		recs = append(recs, rec(kindEvent, 1, 1, 1, 1, 1, 0)) // one node under the last
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
	off := headerSize
	for off+4 <= len(b) {
		w := binary.LittleEndian.Uint32(b[off:])
		if w == 0 {
			break
		}
		if byte(w) == kindEvent {
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

// TestHeaderArgs: the program's arguments go into the header as far as
// they fit, and come back; a header without them has none.
func TestHeaderArgs(t *testing.T) {
	long := strings.Repeat("x", 500)
	for _, args := range [][]string{nil, {"-n", "5"}, {"", "a b", "ü"}, {"-a", long, "-b"}} {
		var h [headerSize - 40]byte
		putArgs(h[:], args)
		got := readArgs(h[:])
		want := args
		if len(args) == 3 && args[1] == long {
			want = args[:1] // the long one does not fit: it and what follows are left out
		}
		if len(got) != len(want) || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: read back %q, want %q", args, got, want)
		}
	}
	tr, err := Decode("x.suncat", loadSample(t))
	if err != nil || tr.Args != nil {
		t.Errorf("a trace written before arguments were recorded: %v, args %q", err, tr.Args)
	}
}
