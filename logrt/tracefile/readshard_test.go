package tracefile

import (
	"encoding/binary"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// shardTrace builds a version 3 trace by hand with chunks of size bytes:
// chunks[i] holds the records of chunk i (chunk 0 after the header); an
// empty record (fill) stands for a padding record that fills the rest of
// the chunk, as the writer writes before its shard moves to a new chunk;
// each chunk then ends with zeros.
func shardTrace(t testing.TB, size int, chunks ...[][]byte) []byte {
	t.Helper()
	b := append([]byte(nil), loadSample(t)[:tracefmt.HeaderSize]...)
	binary.LittleEndian.PutUint32(b[8:], 3)
	binary.LittleEndian.PutUint32(b[16:], uint32(size))
	for i, recs := range chunks {
		if i == 0 && len(recs) > 0 {
			// The getter table, after the chunk's record.
			recs = append(append([][]byte{recs[0]}, getterRec()), recs[1:]...)
		}
		for _, r := range recs {
			if len(r) == 0 {
				r = rec(tracefmt.RecPad, make([]byte, (i+1)*size-len(b)-4)...)
			}
			b = append(b, r...)
		}
		if len(b) > (i+1)*size {
			t.Fatalf("chunk %d overflows: %d bytes", i, len(b)-i*size)
		}
		b = append(b, make([]byte, (i+1)*size-len(b))...)
	}
	return b
}

// Records of shard traces: the frames m f:3 (pc 1) and the value s (id 1).
func frameM() []byte       { return rec(tracefmt.RecFrames, 1, 1, 1, 'm', 1, 'f', 3) }
func strRec(s byte) []byte { return rec(tracefmt.RecString, 1, 1, 1, s) }

var fill = []byte{}

func chunkOf(id byte) []byte { return rec(tracefmt.RecChunk, id, 0) } // ordered by the counter

func clockChunk(id byte) []byte { return rec(tracefmt.RecChunk, id, 1) } // ordered by the clock

// event of getter 1 on a new stack (one node, pc 1) or on node 1 again,
// with value 1, sequence delta ds and time delta dt.
func newStackEvent(ds, dt byte) []byte  { return rec(tracefmt.RecEvent, 1, 1, 1, 1, 1, ds, dt) }
func sameStackEvent(ds, dt byte) []byte { return rec(tracefmt.RecEvent, 1, 0, 1, 1, ds, dt) }

// TestReadShards: two shards' streams, each over two chunks, are merged
// by sequence number; a stack recorded in both shards is one Stack; times
// become non-decreasing; and chunks never written are skipped.
func TestReadShards(t *testing.T) {
	const size = 1024
	data := shardTrace(t, size,
		[][]byte{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 10), rec(tracefmt.RecMark, 1, 2, 5, 1, 'x'), fill},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 12), rec(tracefmt.RecEventDelta+2, 1, 0, 1, 1, 1), fill}, // delta 3, in the kind
		nil, // handed out, never written
		[][]byte{chunkOf(0), sameStackEvent(4, 1)},
		[][]byte{chunkOf(1), sameStackEvent(1, 100)},
	)
	tr, err := Decode("shards.suncat", data)
	if err != nil || tr.Problem() != "" {
		t.Fatalf("decode: %v, %q", err, tr.Problem())
	}
	var got []string
	for _, it := range orderOf(tr) {
		got = append(got, it)
	}
	// Shard 0: a@1 t10, mark x@3 t15, a@7 t16. Shard 1: b@2 t12, b@5
	// t13, b@6 t113.
	want := "a@0:10 b@1:12 mark:x@2:15 b@3:15 b@4:113 a@5:113"
	if strings.Join(got, " ") != want {
		t.Errorf("order\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(tr.Stacks) != 1 {
		t.Errorf("%d stacks, want 1 (the same frames in both shards)", len(tr.Stacks))
	}
}

// TestReadShardsByClock: a trace ordered by the clock is merged by time;
// at the same time a resume comes first, then events, then a pause (and
// the stream order of one shard is kept); the two orders do not mix.
func TestReadShardsByClock(t *testing.T) {
	data := shardTrace(t, 1024,
		// shard 0: a at 10, pause at 20, resume at 30, x at 30
		[][]byte{clockChunk(0), frameM(), strRec('a'), newStackEvent(1, 10), rec(tracefmt.RecMark, 2, 1, 10, 0),
			rec(tracefmt.RecMark, 3, 1, 10, 0), rec(tracefmt.RecMark, 1, 1, 0, 1, 'x')},
		// shard 1: b at 20, c at 30 (the same value id in its own stream)
		[][]byte{clockChunk(1), frameM(), strRec('b'), newStackEvent(1, 20), rec(tracefmt.RecString, 2, 1, 1, 'c'),
			rec(tracefmt.RecEvent, 1, 0, 1, 2, 1, 10)},
	)
	tr, err := Decode("clock.suncat", data)
	if err != nil || tr.Problem() != "" {
		t.Fatalf("decode: %v, %q", err, tr.Problem())
	}
	got := strings.Join(orderOf(tr), " ")
	want := "a@0:10 b@1:20 mark:@2:20 mark:@3:30 c@4:30 mark:x@5:30"
	if got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	if k := tr.Marks[0].Kind; k != KindPause {
		t.Errorf("mark 0 is a %v, want a pause", k)
	}
	// A chunk of the other order is that chunk's damage.
	mixed := shardTrace(t, 1024, [][]byte{clockChunk(0), fill}, [][]byte{chunkOf(1)})
	if tr, err := Decode("mixed.suncat", mixed); err != nil || tr.Damage != nil || !strings.Contains(tr.Problem(), "events of chunk 1 lost (chunk ordered by the counter in a trace ordered by the clock)") {
		t.Errorf("mixed orders: %v, %q", err, tr.Problem())
	}
}

// orderOf lists the events (value@seq:time) and marks of tr in order.
func orderOf(tr *Trace) []string {
	var out []string
	ei, mi := 0, 0
	for ei < len(tr.Events) || mi < len(tr.Marks) {
		if mi < len(tr.Marks) && (ei >= len(tr.Events) || tr.Marks[mi].Seq < tr.Events[ei].Seq) {
			m := tr.Marks[mi]
			out = append(out, "mark:"+m.Label+"@"+strconv.Itoa(int(m.Seq))+":"+strconv.Itoa(int(m.Time)))
			mi++
			continue
		}
		e := tr.Events[ei]
		out = append(out, e.Value+"@"+strconv.Itoa(int(e.Seq))+":"+strconv.Itoa(int(e.Time)))
		ei++
	}
	return out
}

// TestReadShardsDamage: what is wrong with a version 3 trace's chunks and
// sequence numbers is damage at an offset; a stream whose full chunk has
// no successor was cut; a torn record in one stream is reported.
func TestReadShardsDamage(t *testing.T) {
	const size = 1024
	cases := []struct {
		name   string
		chunks [][][]byte
		damage string
		cut    bool
		torn   bool
		events int
	}{
		{"chunk without its record", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1)}, {strRec('b')}},
			"an unknown number of events of chunk 1 lost (offset 1024: chunk does not start with a chunk record (kind 3))", false, false, 1},
		{"zero sequence delta", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), sameStackEvent(0, 1)}},
			"sequence delta 0 out of range", false, false, 1},
		{"chunk record inside a stream", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), chunkOf(1)}},
			"chunk record of shard 1 in the stream of shard 0", false, false, 1},
		{"full chunk without a successor", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), fill}},
			"", true, false, 1},
		{"damage in one stream, the other read on", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), sameStackEvent(0, 1)}, {chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 1), sameStackEvent(3, 1)}},
			"an unknown number of events of chunk 0 lost (offset 580: sequence delta 0 out of range)", false, false, 3},
		{"torn record in one stream", [][][]byte{{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1)}, {chunkOf(1), frameM(), strRec('b'), {0, 0, 0, 0, 1, 2}}},
			"", false, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := shardTrace(t, size, c.chunks...)
			tr, err := Decode("d.suncat", data)
			if err != nil {
				t.Fatal(err)
			}
			damage := ""
			if tr.Damage != nil {
				damage = tr.Damage.Error()
			} else if len(tr.Losses) > 0 {
				damage = tr.Problem() // a damaged stream, the others read on
			}
			if (c.damage == "") != (damage == "") || !strings.Contains(damage, c.damage) || tr.Cut != c.cut || tr.Torn != c.torn || tr.EventsRead != c.events {
				t.Errorf("damage %q, cut %v, torn %v, %d events; want %q, %v, %v, %d", damage, tr.Cut, tr.Torn, tr.EventsRead, c.damage, c.cut, c.torn, c.events)
			}
		})
	}
}

// TestReadShardsStackNumbers: stacks are numbered in the order the merged
// trace first uses them, though the reader decodes each stream ahead of
// the merge: shard 0 defines its stack (n) first, but shard 1's event (on
// m) comes first, so m is stack 1 and n stack 2, and each Stack's ID is
// its number (suncat events -stacks prints the table by ID).
func TestReadShardsStackNumbers(t *testing.T) {
	frameN := rec(tracefmt.RecFrames, 1, 1, 1, 'n', 1, 'f', 4)
	data := shardTrace(t, 1024,
		[][]byte{chunkOf(0), frameN, strRec('a'), newStackEvent(2, 10)},
		[][]byte{chunkOf(1), frameM(), strRec('b'), newStackEvent(1, 5)},
	)
	tr, err := Decode("numbers.suncat", data)
	if err != nil || tr.Problem() != "" {
		t.Fatalf("decode: %v, %q", err, tr.Problem())
	}
	if len(tr.Events) != 2 || len(tr.Stacks) != 2 {
		t.Fatalf("%d events, %d stacks; want 2, 2", len(tr.Events), len(tr.Stacks))
	}
	for i, want := range []string{"m", "n"} {
		e := tr.Events[i]
		if e.Stack != uint32(i+1) || tr.Stacks[e.Stack-1].Frames[0].Func != want {
			t.Errorf("event %d: stack %d (%s), want %d (%s)", i, e.Stack, tr.Stacks[e.Stack-1].Frames[0].Func, i+1, want)
		}
	}
	for i, s := range tr.Stacks {
		if s.ID != uint32(i+1) {
			t.Errorf("Stacks[%d].ID = %d, want %d", i, s.ID, i+1)
		}
	}
}

// TestReadManyShards: the streams of 300 shards, as a program with a shard
// for each P of a big server writes, are merged in the trace's order:
// ordered by the counter, each record by its sequence number; ordered by
// the clock, by time, and of records at the same time, the one whose
// shard comes first in the file first.
func TestReadManyShards(t *testing.T) {
	for _, byClock := range []bool{false, true} {
		data, want := manyShards(t, 300, 3000, byClock)
		tr, err := Decode("many.suncat", data)
		if err != nil || tr.Problem() != "" {
			t.Fatalf("by clock %v: decode: %v, %q", byClock, err, tr.Problem())
		}
		var got []string
		for _, e := range tr.Events {
			got = append(got, e.Value)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("by clock %v: order\n got %.200s\nwant %.200s", byClock, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
}

// BenchmarkMergeShards: streaming the events of a trace of 2, 34 and 258
// shards' streams (a program with a shard for each of 256 Ps), ordered by
// the clock, through DecodeFunc, which keeps none of them: ns/event is
// what decoding and merging cost an event.
//
//	go test -run '^$' -bench MergeShards -benchmem ./logrt
func BenchmarkMergeShards(b *testing.B) {
	for _, shards := range []int{2, 34, 258} {
		b.Run(strconv.Itoa(shards), func(b *testing.B) {
			data, _ := manyShards(b, shards, 100*shards, true)
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tr, err := DecodeFunc("many.suncat", data, func(*Event, *Marker) error { return nil })
				if err != nil || tr.Problem() != "" {
					b.Fatalf("decode: %v, %q", err, tr.Problem())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100*shards), "ns/event")
		})
	}
}

// manyShards builds a trace of the given number of shards' streams (one
// chunk each) holding events events in all, each in a shard picked at
// random, and returns it with the values of its events in the trace's
// order (each event's value is its shard's number). Ordered by the clock,
// ten events in a row have the same time.
func manyShards(t testing.TB, shards, events int, byClock bool) ([]byte, []string) {
	seed := uint32(7)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	// Event k (0, 1, ...) of the trace is in shard of[k], at time at[k].
	of, at := make([]int, events), make([]uint64, events)
	for k := range of {
		of[k], at[k] = rnd(shards), uint64(k/10)
	}
	order := byte(0)
	if byClock {
		order = 1
	}
	streams := make([][]byte, shards)
	last := make([]uint64, shards) // sequence number, or time
	for s := range streams {
		streams[s] = append(rec(tracefmt.RecChunk, append(binary.AppendUvarint(nil, uint64(s)), order)...), frameM()...)
		name := []byte(strconv.Itoa(s))
		streams[s] = append(streams[s], rec(tracefmt.RecString, append([]byte{1, byte(len(name)), byte(len(name))}, name...)...)...)
	}
	for k, s := range of {
		key := uint64(k + 1)
		if byClock {
			key = at[k] + 1
		}
		payload := []byte{1, 0, 1, 1} // getter 1, no new node, the node 1 back, value 1
		if last[s] == 0 {
			payload = []byte{1, 1, 1, 1, 1} // its first: a new node, pc 1
		}
		ds, dt := key-last[s], uint64(0)
		if byClock {
			ds, dt = 1, key-last[s]
		}
		payload = binary.AppendUvarint(payload, ds)
		payload = binary.AppendUvarint(payload, dt)
		streams[s] = append(streams[s], rec(tracefmt.RecEvent, payload...)...)
		last[s] = key
	}
	place := make([]int, events) // the events in the trace's order
	for k := range place {
		place[k] = k
	}
	if byClock { // at the same time, by the shard's place in the file
		sort.SliceStable(place, func(i, j int) bool {
			a, b := place[i], place[j]
			return at[a] < at[b] || at[a] == at[b] && of[a] < of[b]
		})
	}
	var want []string
	for _, k := range place {
		want = append(want, strconv.Itoa(of[k]))
	}
	size := 1024
	for _, st := range streams {
		for len(st)+64 > size { // and the getter table
			size *= 2
		}
	}
	chunks := make([][][]byte, shards)
	for s := range chunks {
		n := len(rec(tracefmt.RecChunk, append(binary.AppendUvarint(nil, uint64(s)), order)...))
		chunks[s] = [][]byte{streams[s][:n], streams[s][n:]}
	}
	return shardTrace(t, size, chunks...), want
}

// TestChunkDamageLocal: damage to a chunk's first record, or to the
// trace's length, costs that chunk (or the end of a shard) only: a bad
// first word, a bad order byte, a second trace after the first (files
// joined), and a length that is not a whole number of words. Before, each
// ended the whole trace, or (the length) went without a note.
func TestChunkDamageLocal(t *testing.T) {
	const size = 1024
	chunks := [][][]byte{
		{chunkOf(0), frameM(), strRec('a'), newStackEvent(1, 1), fill},
		{chunkOf(1), frameM(), strRec('b'), newStackEvent(2, 1), fill},
		{chunkOf(0), sameStackEvent(2, 1), fill},
		{chunkOf(1), sameStackEvent(2, 1), sameStackEvent(1, 1)},
		{chunkOf(0), sameStackEvent(1, 1), sameStackEvent(1, 1)},
	}
	good := shardTrace(t, size, chunks...)
	whole, err := Decode("good", good)
	if err != nil || whole.Problem() != "" || whole.EventsRead != 7 {
		t.Fatalf("the whole trace: %v, %q, %d events", err, whole.Problem(), whole.EventsRead)
	}
	badWord := append([]byte(nil), good...)
	badWord[2*size] = 0x77 // chunk 2's first word: shard 0's second chunk
	badOrder := append([]byte(nil), good...)
	badOrder[3*size+5] = 7 // chunk 3's order: shard 1's second chunk
	joined := append(append([]byte(nil), good...), good...)
	for _, c := range []struct {
		name   string
		data   []byte
		events int
		want   string
	}{
		// Shard 0's chunk 2 is lost; its chunk 4 is read on (it defines
		// nothing), shard 1 whole.
		{"bad first word", badWord, 6, "an unknown number of events of chunk 2 lost (offset 2048: chunk does not start with a chunk record (kind 119))"},
		{"bad order byte", badOrder, 5, "an unknown number of events of chunk 3 lost (offset 3077: bad order in a chunk record)"},
		{"two traces joined", joined, 7, "chunk 5: another trace begins here (files joined into one?): it and the chunks after it are not read"},
		// Inside the commit word of chunk 4's last record (a cut
		// inside the zero word after it may be trailing zeros trimmed).
		{"cut inside a word", good[:4*size+22], 6, "the file is cut short (truncated, or copied while being written): 6 events read, the rest is missing (the records of shard 0 end at the cut"},
	} {
		tr, err := Decode(c.name, c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if tr.Damage != nil || tr.EventsRead != c.events || !strings.Contains(tr.Problem(), c.want) {
			t.Errorf("%s: %d events, %q; want %d and %q", c.name, tr.EventsRead, tr.Problem(), c.events, c.want)
		}
	}
}
