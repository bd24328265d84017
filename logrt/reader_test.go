package logrt

import (
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Tests of what the writer writes as the reader (package tracefile)
// reads it.

// TestDecodeFunc: streaming gives the same events and marks, in the same
// order, as Decode, on the sample and on a recorded trace of distinct
// values; and an error from the callback stops decoding.
func TestDecodeFunc(t *testing.T) {
	sample, err := os.ReadFile("../testdata/traces/marks.suncat")
	if err != nil {
		t.Fatal(err)
	}
	long := runProg(t, "loops", 2000)
	recorded, err := os.ReadFile(long.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"sample", sample}, {"loops", recorded}} {
		whole, err := tracefile.Decode(tc.name, tc.data)
		if err != nil {
			t.Fatal(err)
		}
		var evs []tracefile.Event
		var mks []tracefile.Marker
		var order []uint64
		part, err := tracefile.DecodeFunc(tc.name, tc.data, func(ev *tracefile.Event, mk *tracefile.Marker) error {
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
	_, err = tracefile.DecodeFunc("x", sample, func(*tracefile.Event, *tracefile.Marker) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("callback error: got %v after %d calls, want %v after 3", err, n, stop)
	}
}

// TestHeaderArgs: the program's arguments go into the header as far as
// they fit, and the reader gets them back; a header without them has
// none.
func TestHeaderArgs(t *testing.T) {
	sample, err := os.ReadFile("../testdata/traces/marks.suncat")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 500)
	for _, args := range [][]string{nil, {"-n", "5"}, {"", "a b", "ü"}, {"-a", long, "-b"}} {
		b := append([]byte(nil), sample[:headerSize]...)
		h := b[34+int(binary.LittleEndian.Uint16(b[32:])) : headerSize-8]
		for i := range h {
			h[i] = 0
		}
		putArgs(h, args)
		tr, err := tracefile.Decode("x.suncat", b)
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Args
		want := args
		if len(args) == 3 && args[1] == long {
			want = args[:1] // the long one does not fit: it and what follows are left out
		}
		if len(got) != len(want) || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: read back %q, want %q", args, got, want)
		}
	}
	tr, err := tracefile.Decode("x.suncat", sample)
	if err != nil || tr.Args != nil {
		t.Errorf("a trace written before arguments were recorded: %v, args %q", err, tr.Args)
	}
}

// TestDamageCounted: a recorded trace of several chunks, damaged as a
// machine crash or a bad copy leaves it, is read with a note that counts
// the events lost, chunk by chunk, exactly (the trailers' counts); the
// writer's events are all accounted for, read or counted lost. Before
// the chunks had checks, a zeroed range read as a torn last record, a
// changed byte went unnoticed, and the shard's later chunks were dropped
// without a word.
func TestDamageCounted(t *testing.T) {
	tr := runProg(t, "loops", 400000, "GOMAXPROCS=1", "SUNCAT_PIN=0")
	data, err := os.ReadFile(tr.Path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := tracefile.Decode("x", data)
	if err != nil || whole.Problem() != "" {
		t.Fatalf("the trace: %v %q", err, whole.Problem())
	}
	total := whole.EventsRead
	// The chunks that shard 0 filled and left: they have trailers.
	var full []int
	for i := 1; (i+1)*chunkSize <= len(data); i++ {
		c := data[i*chunkSize : (i+1)*chunkSize]
		if binary.LittleEndian.Uint32(c[len(c)-4:]) == tracefmt.TrailerTag {
			full = append(full, i)
		}
	}
	if len(full) < 2 {
		t.Fatalf("%d events in %d bytes: want at least 2 full chunks after chunk 0, have %v", total, len(data), full)
	}
	k := full[0]
	for _, tc := range []struct {
		name    string
		damage  func(b []byte)
		why     string
		unknown bool // the chunk's own count was zeroed with it
	}{
		{"zeroed range", func(b []byte) {
			for i := k*chunkSize + 1000; i < k*chunkSize+300000; i++ {
				b[i] = 0
			}
		}, "checksum does not match", false},
		{"flipped byte", func(b []byte) { b[k*chunkSize+5001] ^= 0x10 }, "checksum does not match", false},
		{"zeroed to the end of the chunk", func(b []byte) {
			for i := k*chunkSize + 1000; i < (k+1)*chunkSize; i++ {
				b[i] = 0
			}
		}, "an unknown number of events of chunk", true},
	} {
		b := append([]byte(nil), data...)
		tc.damage(b)
		got, err := tracefile.Decode("x", b)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(got.Losses) != 1 || !strings.Contains(got.Problem(), tc.why) {
			t.Errorf("%s: losses %+v, problem %q", tc.name, got.Losses, got.Problem())
			continue
		}
		l := got.Losses[0]
		if tc.unknown && l.Events == -1 {
			l.Events = total - got.EventsRead - l.Later // checked: not negative
		}
		if l.Chunk != k || l.Events < 0 || l.Later < 0 || got.EventsRead+l.Events+l.Later != total {
			t.Errorf("%s: %d read + %d lost in chunk %d + %d later, want %d in all (chunk %d): %q", tc.name, got.EventsRead, l.Events, l.Chunk, l.Later, total, k, got.Problem())
		}
		t.Logf("%s: %s", tc.name, got.Problem())
	}
	// Cut inside a chunk that has later ones: the events before the cut
	// are read, and the note says how many chunks are missing.
	cut, err := tracefile.Decode("x", data[:k*chunkSize+5000])
	if err != nil || !cut.Cut || !strings.Contains(cut.Problem(), "cut short") || !strings.Contains(cut.Problem(), "chunks missing") || !strings.Contains(cut.Problem(), "end at the cut") {
		t.Errorf("cut: %v, %q", err, cut.Problem())
	}
	t.Logf("cut: %s", cut.Problem())
}
