package tracefile

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestHoldsRecords: a file holds records if anything follows its header,
// also past the bytes Load read; a file that is not a trace holds
// records (its decoding says what it is), unless it is empty or zeros.
func TestHoldsRecords(t *testing.T) {
	good := loadSample(t)
	hs := int(binary.LittleEndian.Uint32(good[tracefmt.OffHeaderSize:]))
	padded := func(n int, at ...int) []byte {
		b := make([]byte, n)
		copy(b, good[:hs])
		for _, i := range at {
			b[i] = 1
		}
		return b
	}
	badSize := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(badSize[tracefmt.OffHeaderSize:], 3)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		want bool
	}{
		{"empty", nil, false},
		{"zeros", make([]byte, 100), false},
		{"header only", good[:hs], false},
		{"header and zeros", padded(3 * headRead), false},
		{"a record in the bytes read", padded(3*headRead, hs+8), true},
		{"a record past them", padded(3*headRead, 2*headRead+5), true},
		{"whole", good, true},
		{"cut in the header", good[:hs-4], false},
		{"bad header", badSize, true},
		{"not a trace", []byte("hello"), true},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := f.HoldsRecords(); err != nil || got != c.want {
			t.Errorf("%s: HoldsRecords %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

// TestLoadReadsHeaderOnly: Load keeps the header alone, and the chunks
// are found by the first decoding, which the next ones reuse; a file
// put in the loaded one's place is refused.
func TestLoadReadsHeaderOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.suncat")
	data := loadSample(t)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	hs := int(binary.LittleEndian.Uint32(data[tracefmt.OffHeaderSize:]))
	if len(f.img.head) != hs || f.img.found || len(f.img.chunks) != 0 {
		t.Fatalf("loaded: %d bytes of head (header %d), chunks found %v", len(f.img.head), hs, f.img.found)
	}
	want, err := Decode(p, data)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		tr, err := f.Decode()
		if err != nil || len(tr.Events) != len(want.Events) || !f.img.found {
			t.Fatalf("decoding %d: %v, %d events, want %d", i, err, len(tr.Events), len(want.Events))
		}
	}
	// The loaded file stays (linked), so that its inode is not reused.
	if err := os.Link(p, p+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".new", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Decode(); err == nil {
		t.Error("a file put in the loaded one's place was decoded")
	}
}

// TestCount: Count gives the events and marks that Decode keeps.
func TestCount(t *testing.T) {
	for _, p := range []string{"../../testdata/traces/marks.suncat", "../../testdata/traces/busapp.suncat"} {
		f, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		full, err := f.Decode()
		if err != nil {
			t.Fatal(err)
		}
		tr, marks, err := f.Count()
		if err != nil || tr.EventsRead != len(full.Events) || marks != len(full.Marks) || len(tr.Events)+len(tr.Marks) != 0 || len(tr.Stacks) != len(full.Stacks) {
			t.Errorf("%s: Count %d events, %d marks, %v; Decode %d, %d", p, tr.EventsRead, marks, err, len(full.Events), len(full.Marks))
		}
	}
}
