package main

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// summaryMemLimit is the soft memory limit a read of traces runs under
// when GOMEMLIMIT does not set one: a session of four Hugo -reads runs
// (97 M events) peaked at 2.29 GB of RSS without it, 1.69 GB with it, for
// 8% more CPU (BENCH.md).
const summaryMemLimit = 1750 << 20

// guardMemory sets the soft memory limit of a read of traces, limit
// (summaryMemLimit), unless GOMEMLIMIT is set (getenv), and lifts it once
// the live heap passes three quarters of it: past that, a limit would
// have the collector run almost without end for little memory. stop ends
// the watch and restores the default (no limit).
func guardMemory(getenv func(string) string, limit int64) (stop func()) {
	if getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > uint64(limit)/4*3 {
					debug.SetMemoryLimit(math.MaxInt64)
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-ended
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// environ is os.Getenv, for guardMemory.
var environ = os.Getenv
