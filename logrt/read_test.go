package logrt

import (
	"encoding/binary"
	"os"
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

func TestReadSample(t *testing.T) {
	tr, err := Decode("marks.suncat", loadSample(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 7 || len(tr.Marks) != 5 || tr.Torn {
		t.Fatalf("%d events, %d marks, torn %v; want 7, 5, false", len(tr.Events), len(tr.Marks), tr.Torn)
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
		{"cut record", good[:lastRecord(good)+5], "runs past the end of the file", false},
		{"unknown kind", mutate(func(b []byte) []byte { b[firstRecord] = 77; return b }), "unknown record kind 77", false},
		{"huge length", mutate(func(b []byte) []byte { le.PutUint32(b[firstRecord:], 1|0xffffff<<8); return b }), "runs past the end", false},
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
	})
}
