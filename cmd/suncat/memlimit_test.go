package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestGuardMemory checks that a read of traces runs under the soft
// memory limit when GOMEMLIMIT sets none, under the user's when it does,
// and that the limit is lifted when the read ends.
func TestGuardMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	for _, c := range []struct {
		env         string
		want, after int64
	}{
		{"", summaryMemLimit, math.MaxInt64},
		{"3GiB", math.MaxInt64, math.MaxInt64},
	} {
		stop := guardMemory(fakeEnv("GOMEMLIMIT", c.env), summaryMemLimit)
		if got := debug.SetMemoryLimit(-1); got != c.want {
			t.Errorf("GOMEMLIMIT=%q: limit %d during the read, want %d", c.env, got, c.want)
		}
		stop()
		if got := debug.SetMemoryLimit(-1); got != c.after {
			t.Errorf("GOMEMLIMIT=%q: limit %d after the read, want %d", c.env, got, c.after)
		}
	}
}

// TestGuardMemoryLifts checks that the limit is lifted once the live
// heap nears it: a limit of 8 MiB, under 16 MiB kept live.
func TestGuardMemoryLifts(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	live := make([]byte, 16<<20)
	for i := range live {
		live[i] = byte(i)
	}
	stop := guardMemory(fakeEnv("GOMEMLIMIT", ""), 8<<20)
	defer stop()
	for debug.SetMemoryLimit(-1) != math.MaxInt64 { // go test's -timeout bounds the wait
		runtime.GC()
		time.Sleep(50 * time.Millisecond)
	}
	runtime.KeepAlive(live)
}

// fakeEnv is an environment that holds one variable.
func fakeEnv(key, value string) func(string) string {
	return func(k string) string {
		if k == key {
			return value
		}
		return ""
	}
}
