package logrt

import "testing"

// The cost of a field read recorded with -reads, against a getter call
// (BenchmarkEventDepth10, the same stack depth): the read of a string
// field goes through ReadString, an int field's through ReadInt (its
// decimal digits formatted on the stack), a slice field's through
// ReadSlice ("len N"). As in benchEvents, the loop runs at depth 10 and
// the recorder is called from it directly.

type benchTask struct {
	name     string
	priority int
	aliases  []string
}

var sinkString string

func BenchmarkReadStringDepth10(b *testing.B) {
	t := &benchTask{name: "Pike St"}
	read := func() { sinkString = ReadString(4, t.name) }
	benchRead(b, read, func(n int) {
		for i := 0; i < n; i++ {
			sinkString = ReadString(4, t.name)
		}
	})
}

func BenchmarkReadIntDepth10(b *testing.B) {
	t := &benchTask{priority: 1234567}
	read := func() { sink += ReadInt(5, t.priority) }
	benchRead(b, read, func(n int) {
		for i := 0; i < n; i++ {
			sink += ReadInt(5, t.priority)
		}
	})
}

func BenchmarkReadSliceDepth10(b *testing.B) {
	t := &benchTask{aliases: []string{"a", "b", "c"}}
	read := func() { sink += len(ReadSlice(6, t.aliases)) }
	benchRead(b, read, func(n int) {
		for i := 0; i < n; i++ {
			sink += len(ReadSlice(6, t.aliases))
		}
	})
}

// benchRead warms up with read (opening the trace, defining the stack and
// value), then times loop(b.N) at depth 10.
func benchRead(b *testing.B, read func(), loop func(n int)) {
	setupBenchTrace(b)
	read()
	atDepth(10, func() { loop(1) })
	before := w.bytesUsed()
	b.ReportAllocs()
	b.ResetTimer()
	atDepth(10, func() { loop(b.N) })
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(b.N), "trace-B/event")
}

// The same reads through a frame cache (frame.go), as the rewrite makes
// them: one activation reads in a loop, so every read after the first
// takes its stack's node from the cache. Sites: one site read again with
// one value (a run of repeats); three sites with values that change at
// each read (an event each, no walk).

func BenchmarkReadStringFrameDepth10(b *testing.B) {
	t := &benchTask{name: "Pike St"}
	read := func() { var fc FrameCache; sinkString = ReadStringF(&fc, 0, 4, t.name) }
	benchRead(b, read, func(n int) {
		var fc FrameCache
		for i := 0; i < n; i++ {
			sinkString = ReadStringF(&fc, 0, 4, t.name)
		}
	})
}

func BenchmarkReadFrameSitesDepth10(b *testing.B) {
	t := &benchTask{priority: 1}
	read := func() { var fc FrameCache; sink += ReadIntF(&fc, 0, 5, t.priority) }
	benchRead(b, read, func(n int) {
		var fc FrameCache
		for i := 0; i < n; i += 3 {
			t.priority = i & 1023
			sink += ReadIntF(&fc, 0, 5, t.priority)
			sink += ReadIntF(&fc, 1, 5, t.priority+1)
			sink += ReadIntF(&fc, 2, 5, t.priority+2)
		}
	})
}

// The same three sites without the cache, for comparison.
func BenchmarkReadSitesDepth10(b *testing.B) {
	t := &benchTask{priority: 1}
	read := func() { sink += ReadInt(5, t.priority) }
	benchRead(b, read, func(n int) {
		for i := 0; i < n; i += 3 {
			t.priority = i & 1023
			sink += ReadInt(5, t.priority)
			sink += ReadInt(5, t.priority+1)
			sink += ReadInt(5, t.priority+2)
		}
	})
}

// Short activations (anchor.go): a function that reads one field a call,
// called again and again from one whose cache is filled, at depth 50,
// with anchors (the callee's read takes its stack from the caller's
// cache) and without (each call's read walks the stack).

func BenchmarkReadAnchoredDepth50(b *testing.B) { benchAnchored(b, true) }
func BenchmarkReadWalkedDepth50(b *testing.B)   { benchAnchored(b, false) }

func benchAnchored(b *testing.B, on bool) {
	defer func(was bool) { anchorOn = was }(anchorOn)
	anchorOn = anchorOn && on
	t := &benchTask{name: "Pike St", priority: 1}
	setupBenchTrace(b)
	anchorCaller(t, 2)
	atDepth(50, func() { anchorCaller(t, 2) })
	before := w.bytesUsed()
	walks := shardWalks()
	b.ReportAllocs()
	b.ResetTimer()
	atDepth(50, func() { anchorCaller(t, b.N/2) }) // two reads a round
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(b.N), "trace-B/event")
	b.ReportMetric(float64(shardWalks()-walks)/float64(b.N), "walks/event")
}

// shardWalks returns the walks of the trace's shards so far.
func shardWalks() int { return shardSum(func(s *shard) int { return s.walks }) }

// shardSum returns the sum of count over the trace's shards.
func shardSum(count func(*shard) int) int {
	n := 0
	for _, s := range w.shards {
		s.mu.Lock()
		n += count(s)
		s.mu.Unlock()
	}
	return n
}
