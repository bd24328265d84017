package tracefile

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// v5 makes a shard trace a version 5 one.
func v5(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[8:], 5)
	return b
}

// batchRec is a batch record of time delta dt and entries (tracefmt.RecBatch),
// with room bytes of payload in all (0: just what it uses), the rest zero,
// as the writer leaves a batch still open.
func batchRec(room int, dt byte, entries ...byte) []byte {
	used := 1 + len(entries)
	p := make([]byte, 4, 4+used)
	binary.LittleEndian.PutUint32(p, uint32(used))
	p = append(append(p, dt), entries...)
	for len(p) < room {
		p = append(p, 0)
	}
	return rec(tracefmt.RecBatch, p...)
}

// The entries of testBatch, on node 1 (defined by the event before),
// and what they stand for.
var (
	testEntries = []byte{
		0,           // the node's last event again: getter 1, "a"
		4 | 1, 1, 1, // getter 1 given, string 1
		2, 5<<2 | tracefmt.LitInt, // -3
		0,                          // -3 again
		2, 1<<2 | tracefmt.LitBool, // true
		2, 0<<2 | tracefmt.LitBool, // false
		2, 12<<2 | tracefmt.LitLen, // len 12
		2, 0x91, 0x04, // 529 = 132<<2 | LitUint, in two bytes
	}
	testValues = "a a -3 -3 true false len 12 132"
)

// TestReadBatches: a batch's entries are events at the batch's time, on
// the nodes their deltas name, with the getter and value of the node's
// last event where they leave them out, and literals spelled as the
// writer would have interned them; a repeat after a batch repeats its
// last entry; an open batch (room left, zeros) reads the same; events
// of another shard are merged by time around the whole batch.
func v7(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[8:], 7)
	return b
}

// TestReadBatchesPlusOne: an entry of value kind 3 (version 7) is the
// previous integer literal on its node plus one, of each integer format,
// across zero and after a value that repeats; a string in between ends
// it.
func TestReadBatchesPlusOne(t *testing.T) {
	data := v7(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1),
		batchRec(0, 1,
			2, 1<<2|tracefmt.LitInt, // -1 (zigzag 1)
			3, 3, 0, 3, // 0, 1, 1, 2
			2, 9<<2|tracefmt.LitUint, 3, // 9, 10
			2, 4<<2|tracefmt.LitLen, 3, // len 4, len 5
			1, 1, // "a"
		)}))
	tr, err := Decode("plus.suncat", data)
	if err != nil || tr.Problem() != "" {
		t.Fatalf("decode: %v, %q", err, tr.Problem())
	}
	var vals []string
	for _, e := range tr.Events {
		vals = append(vals, e.Value)
	}
	if got, want := strings.Join(vals, "|"), "a|-1|0|1|1|2|9|10|len 4|len 5|a"; got != want {
		t.Errorf("values %s, want %s", got, want)
	}
}

func TestReadBatches(t *testing.T) {
	for _, room := range []int{0, 100} {
		data := v5(shardTrace(t, 1024,
			[][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 10), batchRec(room, 5, testEntries...), repeatRec(2)},
			[][]byte{clockChunk(1), frameM(), strRec('b'), newStackEvent(1, 12), sameStackEvent(1, 8)},
		))
		tr, err := Decode("batch.suncat", data)
		if err != nil || tr.Problem() != "" {
			t.Fatalf("room %d: decode: %v, %q", room, err, tr.Problem())
		}
		got := strings.Join(orderOf(tr), " ")
		want := "a@0:10 b@1:12 a@2:15 a@3:15 -3@4:15 -3@5:15 true@6:15 false@7:15 len 12@8:15 132@9:15 132@10:15 132@11:15 b@12:20"
		if got != want {
			t.Errorf("room %d: order\n got %s\nwant %s", room, got, want)
		}
		var vals []string
		for _, e := range tr.Events {
			if e.Stack != 1 || e.Getter != 1 || e.Len != len(e.Value) || e.Truncated {
				t.Errorf("room %d: event %+v", room, e)
			}
			if e.Time == 15 {
				vals = append(vals, e.Value)
			}
		}
		if v := strings.Join(vals[:len(vals)-2], " "); v != testValues {
			t.Errorf("room %d: values %q, want %q", room, v, testValues)
		}
	}
}

// TestReadBatchesDamage: a batch in a trace older than version 5 or
// ordered by the counter, or without entries, is damage; an entry that
// does not decode loses it and the rest of its stream, not the entries
// before it, and the loss is counted from the chunk's check.
func TestReadBatchesDamage(t *testing.T) {
	bad := []struct {
		name, want string
		data       []byte
	}{
		{"version 4", "batch record in a version 4 trace",
			v4(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 0)}))},
		{"by the counter", "batch record in a trace ordered by the counter",
			v5(shardTrace(t, 1024, [][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 0)}))},
		{"empty", "batch record without entries",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1)}))},
		{"used over its room", "batch of 9 bytes in a record of 8",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), rec(tracefmt.RecBatch, 9, 0, 0, 0, 1, 0, 0, 0)}))},
		{"undefined node", "batch entry on undefined node 2",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 1<<4)}))},
		{"no value yet", "batch entry without a getter",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), rec(tracefmt.RecEvent, 1, 2, 1, 1, 1, 1, 1, 1), batchRec(0, 1, 1<<3)}))},
		{"bad boolean", "boolean literal 2",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 2, 2<<2|tracefmt.LitBool)}))},
		{"value kind 3", "batch entry of value kind 3 in a version 5 trace",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 3)}))},
		{"plus one on a string", "batch entry adds one to a node whose value is no integer literal",
			v7(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 3)}))},
		{"plus one on a boolean", "batch entry adds one to a node whose value is no integer literal",
			v7(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 2, 1<<2|tracefmt.LitBool, 3)}))},
		{"undefined string", "string id 2 out of range",
			v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 1, 2)}))},
	}
	for _, c := range bad {
		tr, err := Decode(c.name, c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p := tr.Problem(); !strings.Contains(p, c.want) {
			t.Errorf("%s: problem %q, want %q", c.name, p, c.want)
		}
	}
	// Two good entries, then one on an undefined node, then one more: the
	// first event and the two entries are read, and the stream ends.
	data := v5(shardTrace(t, 1024, [][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 1), batchRec(0, 1, 0, 2, 5<<2, 1<<4, 0), sameStackEvent(1, 1)}))
	tr, err := Decode("damaged", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(orderOf(tr), " "); got != "a@0:1 a@1:2 -3@2:2" || !strings.Contains(tr.Problem(), "undefined node 2") {
		t.Errorf("damaged batch: read %q, problem %q", got, tr.Problem())
	}
}
