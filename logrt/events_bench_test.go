package logrt

import "testing"

// The cost of a field read recorded with -reads, against a getter call
// (BenchmarkEventDepth10): the read of a string field goes through
// ReadString, an int field's through ReadInt (its decimal digits
// formatted on the stack), a slice field's through ReadSlice ("len N").

type benchTask struct {
	name     string
	priority int
	aliases  []string
}

func BenchmarkReadStringDepth10(b *testing.B) {
	t := &benchTask{name: "Pike St"}
	benchRead(b, func() { sinkString = ReadString(4, t.name) })
}

func BenchmarkReadIntDepth10(b *testing.B) {
	t := &benchTask{priority: 1234567}
	benchRead(b, func() { sink += ReadInt(5, t.priority) })
}

func BenchmarkReadSliceDepth10(b *testing.B) {
	t := &benchTask{aliases: []string{"a", "b", "c"}}
	benchRead(b, func() { sink += len(ReadSlice(6, t.aliases)) })
}

var sinkString string

func benchRead(b *testing.B, read func()) {
	setupBenchTrace(b)
	read() // warm up: open the trace, define the stack and value
	atDepth(10, read)
	before := w.bytesUsed()
	b.ReportAllocs()
	b.ResetTimer()
	atDepth(10, func() {
		for i := 0; i < b.N; i++ {
			read()
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(b.N), "trace-B/event")
}
