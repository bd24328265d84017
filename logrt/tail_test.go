package logrt

import (
	"sort"
	"strconv"
	"testing"
	"time"
)

// BenchmarkEventTail records b.N events from one goroutine, each with a
// value not seen before (made beforehand, so that the benchmark itself
// allocates nothing while it times), and reports the slowest getter calls:
// those that grow the writer's tables or move a shard to a new chunk. A
// getter call that stalls for tens of milliseconds is a lag the program
// would not have without suncat.
//
//	go test -run '^$' -bench EventTail -benchtime 400000x ./logrt
func BenchmarkEventTail(b *testing.B) {
	setupBenchTrace(b)
	String(1, "warm")
	tailRound++
	vals := make([]string, b.N)
	for i := range vals {
		vals[i] = "value " + strconv.Itoa(i) + " of round " + strconv.Itoa(tailRound) + " of the tail benchmark"
	}
	times := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range vals {
		start := time.Now()
		String(1, vals[i])
		times[i] = time.Since(start)
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)-1].Microseconds()), "max-us")
	b.ReportMetric(float64(times[len(times)*9999/10000].Microseconds()), "p99.99-us")
}

var tailRound int
