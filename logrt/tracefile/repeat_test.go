package tracefile

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// repeatRec is a repeat record counting n.
func repeatRec(n uint32) []byte {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], n|tracefmt.RepeatFlag)
	return rec(tracefmt.RecRepeat, b[:]...)
}

// v4 makes a shard trace a version 4 one.
func v4(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[8:], 4)
	return b
}

// TestReadRepeats: a repeat record hands on its event again, count times,
// right after it and before every later record of any stream (by the
// counter and by the clock); two repeat records after one event add up;
// each repeat has the event's getter, stack, value and time.
func TestReadRepeats(t *testing.T) {
	for _, order := range []struct {
		name  string
		chunk func(byte) []byte
	}{{"counter", chunkOf}, {"clock", clockChunk}} {
		data := v4(shardTrace(t, 1024,
			// shard 0: a@1 t10, x3, then a again @4 t20 x2+1
			[][]byte{order.chunk(0), frameM(), strRec('a'), newStackEvent(1, 10), repeatRec(3),
				sameStackEvent(3, 10), repeatRec(2), repeatRec(1)},
			// shard 1: b@2 t15 x1, b@3 t16
			[][]byte{order.chunk(1), frameM(), strRec('b'), newStackEvent(2, 15), repeatRec(1), sameStackEvent(1, 1)},
		))
		tr, err := Decode("repeats.suncat", data)
		if err != nil || tr.Problem() != "" {
			t.Fatalf("%s: decode: %v, %q", order.name, err, tr.Problem())
		}
		got := strings.Join(orderOf(tr), " ")
		want := "a@0:10 a@1:10 a@2:10 a@3:10 b@4:15 b@5:15 b@6:16 a@7:20 a@8:20 a@9:20 a@10:20"
		if got != want {
			t.Errorf("%s: order\n got %s\nwant %s", order.name, got, want)
		}
		if tr.EventsRead != 11 {
			t.Errorf("%s: EventsRead %d, want 11", order.name, tr.EventsRead)
		}
		for i, e := range tr.Events {
			if e.Stack != 1 || e.Getter != 1 {
				t.Errorf("%s: event %d: stack %d getter %d", order.name, i, e.Stack, e.Getter)
			}
		}
		n := 0
		if _, err := DecodeFunc("repeats.suncat", data, func(ev *Event, _ *Marker) error { n++; return nil }); err != nil || n != 11 {
			t.Errorf("%s: DecodeFunc: %v, %d events", order.name, err, n)
		}
	}
}

// TestReadRepeatsDamage: a repeat record where there is no event to
// repeat, of another size, over MaxRepeat, or in a version 3 trace, is
// damage; a whole decode refuses repeats that make more events than it
// holds for the file's bytes, which DecodeFunc streams.
func TestReadRepeatsDamage(t *testing.T) {
	bad := []struct {
		name, want string
		data       []byte
	}{
		{"after a string", "repeat record after a record that is not an event",
			v4(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), rec(tracefmt.RecString, 2, 1, 1, 'b'), repeatRec(1)}))},
		{"first in a chunk", "repeat record after a record that is not an event",
			v4(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), fill}, [][]byte{chunkOf(0), repeatRec(1)}))},
		{"short", "repeat record of 2 bytes",
			v4(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), rec(tracefmt.RecRepeat, 1, 0)}))},
		{"too many", "repeat count 65537 over 65536",
			v4(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), repeatRec(tracefmt.MaxRepeat + 1)}))},
		{"no flag", "repeat count without its flag",
			v4(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), rec(tracefmt.RecRepeat, 1, 0, 0, 0)}))},
		{"version 3", "repeat record in a version 3 trace",
			shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), repeatRec(1)})},
	}
	for _, c := range bad {
		tr, err := Decode("bad.suncat", c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if p := tr.Problem(); !strings.Contains(p, c.want) {
			t.Errorf("%s: problem %q, want %q", c.name, p, c.want)
		}
	}
	var recs [][]byte
	recs = append(recs, chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1))
	for i := 0; i < 8; i++ {
		recs = append(recs, repeatRec(tracefmt.MaxRepeat))
	}
	many := v4(shardTrace(t, 1024, recs))
	if _, err := Decode("many.suncat", many); err == nil || !strings.Contains(err.Error(), "read it as a stream") {
		t.Errorf("whole decode of %d repeats: %v", 8*tracefmt.MaxRepeat, err)
	}
	n := 0
	if _, err := DecodeFunc("many.suncat", many, func(*Event, *Marker) error { n++; return nil }); err != nil || n != 8*tracefmt.MaxRepeat+1 {
		t.Errorf("streamed: %v, %d events, want %d", err, n, 8*tracefmt.MaxRepeat+1)
	}
}
