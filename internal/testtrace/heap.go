package testtrace

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// The heap's samples, for the memory benchmarks.
const (
	heapObjects = "/memory/classes/heap/objects:bytes" // live or not yet collected
	heapLive    = "/gc/heap/live:bytes"                // live at the last collection
)

// HeapObjects is the runtime's count of bytes in heap objects, live or
// garbage not yet collected.
func HeapObjects() uint64 {
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// HeapPeak samples the heap every millisecond from now until the
// returned function is called, which returns the most heap objects seen
// (garbage not yet collected included) and the most live after a
// collection, beyond what was in use at the start.
func HeapPeak() func() (peak, live uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapObjects}, {Name: heapLive}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak, live uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if h := sample[0].Value.Uint64(); h > base {
				peak = max(peak, h-base)
			}
			if l := sample[1].Value.Uint64(); l > base {
				live = max(live, l-base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return peak, live
	}
}
