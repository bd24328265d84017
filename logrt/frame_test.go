package logrt

import (
	"os"
	"testing"
)

// TestFramesTrueStacks runs reads through frame caches (exitprog frames:
// call chains that differ only far from the reads, recursion, closures,
// a range-over-func loop body called from varying depths, a stack that
// grows and moves under a live activation, goroutines moving between
// Ps), and checks that the trace holds exactly one event for each read,
// in order, each with the value and the stack runtime.Callers gave the
// program there. With SUNCAT_FRAME=0 (no frame caches) and
// SUNCAT_REPEAT=0 (no known contexts either), the same.
func TestFramesTrueStacks(t *testing.T) {
	for _, env := range []string{"SUNCAT_FRAME=1", "SUNCAT_FRAME=0", "SUNCAT_REPEAT=0"} {
		dir := t.TempDir()
		keys := printed(t, env, dir, "frames", "300")
		records, repeated := repeatRecords(t, sameStacks(t, env, dir, keys))
		t.Logf("%s: %d reads; %d repeat records count %d", env, len(keys), records, repeated)
		if env == "SUNCAT_FRAME=1" && ctxOn && records == 0 {
			t.Errorf("%s: no repeat records", env)
		}
	}
}

// frameReader reads two fields as the rewrite of -reads makes a function
// read them, with a frame cache of its activation.
//
//go:noinline
func frameReader(t *benchTask, fc *FrameCache) int {
	var __suncatF FrameCache
	n := ReadIntF(&__suncatF, 0, 5, t.priority)
	n += len(ReadStringF(&__suncatF, 1, 4, t.name))
	if fc != nil {
		*fc = __suncatF
	}
	return n
}

// TestFrameCacheNoAlloc checks that the frame cache of an instrumented
// function stays on its stack (the function does not allocate), and that
// its reads fill it.
func TestFrameCacheNoAlloc(t *testing.T) {
	// setupBenchTrace sets SUNCAT_CONTROL=off and the trace folder for
	// the process: restore them when the test ends, or the programs that
	// later tests start (the control channel's) would inherit them.
	for _, k := range []string{TraceEnv, "SUNCAT_CONTROL"} {
		t.Setenv(k, os.Getenv(k))
	}
	setupBenchTrace(t)
	task := &benchTask{name: "Pike St", priority: 3}
	for i := 0; i < 10; i++ {
		frameReader(task, nil)
	}
	if n := testing.AllocsPerRun(1000, func() { frameReader(task, nil) }); n != 0 {
		t.Errorf("an instrumented function made %v allocations a call", n)
	}
	if !frameOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	var fc FrameCache
	frameReader(task, &fc)
	if fc.sid == 0 || fc.site[0] != 1 || fc.site[1] != 2 || fc.leaf[0] == 0 || fc.leaf[1] == 0 || fc.leaf[0] == fc.leaf[1] {
		t.Errorf("the reads left the cache %+v", fc)
	}
}
