package logrt

import (
	"os"
	"sync/atomic"
	"time"
)

// Ticks. A batch (batch.go) reads the clock when it opens, and a run of
// repeats (repeat.go) counts its events at the time of its first one: the
// events that join them take that time. Within one goroutine too, so a
// goroutine that read fields, slept and read them again would have its
// later reads stamped before the pause, and -split idle= would not see
// it. So a timer ends every open batch and run a tick after one opened
// (it raises writer.marks, as a mark does): an event stamped by a batch
// or run is at most about a tick later than its time. The timer is armed
// by a record that read the clock while none was armed (order), after
// the record, and fires once; a program that stops recording leaves no
// timer behind, and none runs while it is idle.
const tickEvery = 10 * time.Millisecond

// tickOn says whether the timer runs: unless SUNCAT_TICK=0, which leaves
// batches and runs open across pauses, as before (a goroutine's reads
// after a pause may then take a time from before it).
var tickOn = os.Getenv("SUNCAT_TICK") != "0"

// armTick arms the tick's timer, unless it is armed.
func (w *writer) armTick() {
	if atomic.CompareAndSwapInt32(&w.ticking, 0, 1) {
		time.AfterFunc(tickEvery, w.tick)
	}
}

// tick ends the open batches and runs of repeats of every shard.
func (w *writer) tick() {
	atomic.AddUint64(&w.marks, 1)
	atomic.StoreInt32(&w.ticking, 0)
}
