package logrt

import (
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
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
