package logrt

import (
	"runtime"
	"testing"
	"unsafe"
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
	useBenchTrace(t)
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

// anchorCallee reads a field once a call, as a method of a few lines
// does: its activation's first read is its only one.
//
//go:noinline
func anchorCallee(t *benchTask) int {
	var __suncatF FrameCache
	return ReadIntF(&__suncatF, 0, 5, t.priority)
}

// anchorThrough calls anchorCallee through a frame that reads nothing.
//
//go:noinline
func anchorThrough(t *benchTask) int { return anchorCallee(t) + 1 }

// anchorGetter is a string getter: no cache of its own.
//
//go:noinline
func anchorGetter(t *benchTask) int { return len(String(4, t.name)) }

// anchorCaller reads a field, which fills its cache, then calls
// anchorCallee n times directly and n times through anchorThrough, and
// the getter anchorGetter n times.
//
//go:noinline
func anchorCaller(t *benchTask, n int) int {
	var __suncatF FrameCache
	s := len(ReadStringF(&__suncatF, 0, 4, t.name))
	for i := 0; i < n; i++ {
		s += anchorCallee(t) + anchorThrough(t) + anchorGetter(t)
	}
	return s
}

// anchoredTrace starts the trace and calls anchorCaller a few times, so
// that the offsets of the frame caches are learnt and the nodes defined,
// and returns the task it read; it skips the test where reads have no
// frame caches or anchors.
func anchoredTrace(t *testing.T) *benchTask {
	t.Helper()
	useBenchTrace(t)
	task := &benchTask{name: "Pike St", priority: 3}
	anchorCaller(task, 5)
	if !anchorOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	return task
}

// TestAnchorsSpareWalks checks that the first read of an activation
// whose caller's cache is filled takes its stack from that cache (an
// anchor, anchor.go), directly or through a frame that reads nothing,
// rather than walking the stack, and so does a getter's call from it:
// the walks do not grow with the calls.
// That every such event has its true stack is TestFramesTrueStacks'.
func TestAnchorsSpareWalks(t *testing.T) {
	task := anchoredTrace(t)
	defer func(on bool) { anchorOn = on }(anchorOn)
	const calls = 1000
	for _, on := range []bool{false, true} {
		anchorOn = on
		before := shardWalks()
		anchorCaller(task, calls)
		got := shardWalks() - before
		t.Logf("anchors %v: %d walks for %d calls", on, got, 3*calls)
		// A goroutine that moves to another P finds its callers' caches
		// filled in another shard: a walk or two then (the race detector
		// on a loaded machine moved it 13 times in 3000 calls, 27 walks).
		// Under the race detector CI once saw 1259 walks in 3000 calls:
		// every call walked after the goroutine's stack moved, until
		// anchors were filled again where they moved to
		// (TestAnchorsAfterStackMove). The race detector's bound leaves
		// room for more moves still.
		limit, want := 3*calls/50, "at most one in fifty"
		if raceEnabled {
			limit, want = 3*calls/5, "at most one in five under the race detector"
		}
		if on && got > limit {
			t.Errorf("%d calls walked the stack %d times, want %s", 3*calls, got, want)
		}
		if !on && got < 3*calls {
			t.Errorf("without anchors, %d calls walked the stack %d times, want one walk a call", 3*calls, got)
		}
	}
}

// descend calls f depth frames below its own.
//
//go:noinline
func descend(depth int, f func()) {
	if depth == 0 {
		f()
		return
	}
	descend(depth-1, f)
}

// TestAnchorsSpareWalksDeep is TestAnchorsSpareWalks deeper than the
// stacks a trace keeps (maxFrames), where they are cut: a callee's stack
// is cut where its anchor's is, but where its depth crosses a multiple of
// cutK (cutAlike), and is found from it as well.
func TestAnchorsSpareWalksDeep(t *testing.T) {
	task := anchoredTrace(t)
	const calls = 1000
	depths := []int{maxFrames - 20, 3 * maxFrames}
	for d := maxFrames; d < maxFrames+cutK; d++ { // one of them has its callees' cut past the caller's
		depths = append(depths, d)
	}
	for _, depth := range depths {
		var got int
		descend(depth, func() {
			anchorCaller(task, 5) // its stack at this depth: a walk, and new nodes
			before := shardWalks()
			anchorCaller(task, calls)
			got = shardWalks() - before
		})
		t.Logf("depth %d: %d walks for %d calls", depth, got, 3*calls)
		// Under the race detector on a loaded machine the goroutine's
		// stack moves often, and each move costs walks until anchors
		// are filled where it moved to (TestAnchorsSpareWalks): CI saw
		// 1684 walks in 3000 calls at one depth (2026-11-28). Without
		// anchors every call walks.
		limit := 3 * calls / 5
		if raceEnabled {
			limit = 3 * calls * 4 / 5
		}
		if got > limit {
			t.Errorf("depth %d: %d calls walked the stack %d times, want at most %d", depth, 3*calls, got, limit)
		}
	}
}

// TestAnchoredGettersJoinBatches checks that a getter's call that takes
// its stack from its caller's cache joins the shard's open batch, as the
// reads around it do, rather than ending it with an event record of its
// own: a batch holds many of anchorCaller's calls.
func TestAnchoredGettersJoinBatches(t *testing.T) {
	task := anchoredTrace(t)
	if !batchOn {
		t.Skip("no batches here")
	}
	const calls = 1000
	opened := func() int { return shardSum(func(s *shard) int { return s.opened }) }
	before := opened()
	anchorCaller(task, calls)
	got := opened() - before
	t.Logf("%d batches for %d reads and %d getter calls", got, 2*calls, calls)
	// A batch holds up to maxBatch entries; one a getter call would
	// make calls of them. A move to another P (the race detector makes
	// many) opens one there.
	if limit := calls / 10; got > limit {
		t.Errorf("%d reads and %d getter calls opened %d batches, want at most %d", 2*calls, calls, got, limit)
	}
}

// anchorMovedCaller reads a field, which fills its cache (an anchor for
// its callees' reads), then calls anchorMovedProbe with the shard the
// cache names.
//
//go:noinline
func anchorMovedCaller(t *benchTask) (found, moved, stale bool) {
	var __suncatF FrameCache
	sink += len(ReadStringF(&__suncatF, 0, 4, t.name))
	return anchorMovedProbe(__suncatF.sid)
}

// anchorMovedProbe walks the frame pointers from its frame, as
// fromAnchor does, and looks for its caller's cache there in shard sid-1
// (found); then it moves its goroutine's stack to lower addresses (as a
// lookup of a new return address may, by growing it) and looks again,
// in the frames it walked before the move. It reports whether it found
// the anchor before, whether the stack moved lower, and whether the
// search after the move returned a cache: one where the caller's was
// before the move, in the stack the move freed.
//
//go:noinline
func anchorMovedProbe(sid int32) (found, moved, stale bool) {
	var pcs [4]uintptr
	var fps [5]uintptr
	at := uintptr(unsafe.Pointer(&pcs[0]))
	n := fpCallers(pcs[:], nil, fps[:]) // fps[1] is anchorMovedCaller's frame
	if sid == 0 {
		return false, false, false
	}
	s := w.shards[sid-1]
	c, _ := s.findAnchor(pcs[:n], fps[:n+1], 1, at)
	found = c != nil
	for i := 0; i < 8 && uintptr(unsafe.Pointer(&pcs[0])) >= at; i++ {
		runtime.GC() // which shrinks the stack, grown before, to a new one
	}
	if uintptr(unsafe.Pointer(&pcs[0])) >= at {
		return found, false, false
	}
	c, _ = s.findAnchor(pcs[:n], fps[:n+1], 1, at)
	return found, true, c != nil
}

// growStack uses about n KiB of stack.
//
//go:noinline
func growStack(n int) int {
	var pad [1024]byte
	pad[n%len(pad)] = byte(n)
	if n <= 1 {
		return int(pad[0])
	}
	return growStack(n-1) + int(pad[n%len(pad)])
}

// TestAnchorStackMoved checks that a search for an anchor from frame
// pointers read before the goroutine's stack moved finds none: those
// addresses are of the old stack, freed by the move (fromAnchor's
// lookups of return addresses may grow the stack between its walk and
// its use of the frames).
func TestAnchorStackMoved(t *testing.T) {
	useBenchTrace(t)
	task := &benchTask{name: "Pike St", priority: 3}
	anchorMovedCaller(task) // starts the trace, learns the caller's offset
	if !anchorOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	const runs = 20
	found, moved, stale := 0, 0, 0
	for i := 0; i < runs; i++ {
		done := make(chan [3]bool)
		go func() { // a fresh, small stack
			sink += growStack(64) // a large stack, mostly unused by the probe
			f, m, s := anchorMovedCaller(task)
			done <- [3]bool{f, m, s}
		}()
		r := <-done
		found, moved, stale = found+b2i(r[0]), moved+b2i(r[1]), stale+b2i(r[2])
	}
	t.Logf("of %d runs, %d found the anchor, %d moved the stack lower, %d found it after", runs, found, moved, stale)
	if found != runs || moved == 0 {
		t.Fatalf("of %d runs, %d found the anchor before the move and %d moved the stack lower: want all, and some", runs, found, moved)
	}
	if stale > 0 {
		t.Errorf("%d of %d runs found an anchor in the stack as it was before it moved", stale, moved)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// anchorLone reads a field once a call, as anchorCallee does, at a site
// of its own (searches are counted by read site).
//
//go:noinline
func anchorLone(t *benchTask) int {
	var __suncatF FrameCache
	return ReadIntF(&__suncatF, 0, 9, t.priority)
}

// TestAnchorsGiveUp checks that reads whose callers have no cache to
// find stop looking for one: anchorLone called from a frame without a
// cache, 1000 times, searches anchorMisses times and then once in
// anchorRetry reads, where it searched at every read before.
func TestAnchorsGiveUp(t *testing.T) {
	task := anchoredTrace(t)
	looks := func() int { return shardSum(func(s *shard) int { return s.anchorLooks }) }
	t.Cleanup(func() {
		for _, s := range w.shards {
			s.mu.Lock()
			s.anchorMiss = nil
			s.mu.Unlock()
		}
	})
	const calls = 1000
	before, walked := looks(), shardWalks()
	for i := 0; i < calls; i++ {
		sink += anchorLone(task)
	}
	got, walks := looks()-before, shardWalks()-walked
	t.Logf("%d calls: %d searches, %d walks", calls, got, walks)
	if max := anchorMisses*4 + calls/anchorRetry*2; got > max || got < anchorMisses {
		t.Errorf("%d calls searched for an anchor %d times, want %d to %d", calls, got, anchorMisses, max)
	}
	if walks < calls {
		t.Errorf("%d calls walked %d times, want one walk a call (no anchor)", calls, walks)
	}
}

// pathCallee reads three fields a call: its activations begin from the
// path of their anchor (path.go).
//
//go:noinline
func pathCallee(t *benchTask) int {
	var __suncatF FrameCache
	n := ReadIntF(&__suncatF, 0, 5, t.priority)
	n += len(ReadStringF(&__suncatF, 1, 4, t.name))
	return n + ReadIntF(&__suncatF, 2, 5, t.priority+n)
}

// pathThrough calls pathCallee through far frames that read nothing.
//
//go:noinline
func pathThrough(t *benchTask, far int) int {
	if far > 0 {
		return pathThrough(t, far-1) + 1
	}
	return pathCallee(t)
}

// pathCaller reads a field, which fills its cache, then calls pathCallee
// n times, directly and through 12 frames that read nothing (a path kept
// in two parts).
//
//go:noinline
func pathCaller(t *benchTask, n int) int {
	var __suncatF FrameCache
	s := len(ReadStringF(&__suncatF, 0, 4, t.name))
	for i := 0; i < n; i++ {
		s += pathCallee(t) + pathThrough(t, 11)
	}
	return s
}

// TestFirstReadSearchesOnce checks that the first read of an
// activation searches for an anchor once (first, from hit), and that one
// which found none walks at once (record does not search again).
func TestFirstReadSearchesOnce(t *testing.T) {
	task := anchoredTrace(t)
	forget := func() {
		for _, s := range w.shards {
			s.mu.Lock()
			s.anchorMiss = nil // no read site has given up searching
			s.mu.Unlock()
		}
	}
	forget()
	t.Cleanup(forget)
	looks := func() int { return shardSum(func(s *shard) int { return s.anchorLooks }) }
	const calls = 4 // fewer than anchorMisses/2: each searches, twice or once
	before, walked := looks(), shardWalks()
	for i := 0; i < calls; i++ {
		sink += anchorLone(task)
	}
	got, walks := looks()-before, shardWalks()-walked
	if got != calls || walks != calls {
		t.Errorf("%d reads with no anchor searched %d times and walked %d times, want %d and %d", calls, got, walks, calls, calls)
	}
}

// TestPathsSpareLookups checks that a function called again and again
// from a live anchor finds its nodes in the anchor's path (path.go),
// directly or through more frames than a path holds: without paths, each
// call looks up the call's edges, then each site's; with them, the
// lookups do not grow with the calls. That every such
// event has its true stack is TestFramesTrueStacks'.
func TestPathsSpareLookups(t *testing.T) {
	useBenchTrace(t)
	defer func(on bool) { pathOn = on }(pathOn)
	task := &benchTask{name: "Pike St", priority: 3}
	pathCaller(task, 5) // starts the trace, learns the offsets, defines the nodes
	if !pathOn || w.nP == 0 {
		t.Skip("no anchors here")
	}
	lookups := func() int { return shardSum(func(s *shard) int { return s.tree.lookups }) }
	const calls = 1000
	for _, on := range []bool{false, true} {
		pathOn = on
		before := lookups()
		pathCaller(task, calls)
		got := lookups() - before
		t.Logf("paths %v: %d lookups for %d calls", on, got, calls)
		// A goroutine that moves to another P walks, and looks up
		// again: the bound leaves room for that, and more under the
		// race detector (TestAnchorsSpareWalks).
		limit := calls / 10
		if raceEnabled {
			limit = 2 * calls
		}
		if on && got > limit {
			t.Errorf("with paths, %d calls made %d lookups, want at most %d", calls, got, limit)
		}
		if !on && got < 2*4*calls {
			t.Errorf("without paths, %d calls made %d lookups, want at least %d (the call's and each site's)", calls, got, 2*4*calls)
		}
	}
}

// anchorMovingCaller reads a field, which fills its cache, calls
// anchorCallee n times, moves its goroutine's stack (a collection shrinks
// a stack grown before), and calls it n times more: it returns the walks
// of those, and whether the stack moved.
//
//go:noinline
func anchorMovingCaller(t *benchTask, n int) (walks int, moved bool) {
	var __suncatF FrameCache
	sink += len(ReadStringF(&__suncatF, 0, 4, t.name))
	var here byte
	at := uintptr(unsafe.Pointer(&here))
	for i := 0; i < n; i++ {
		sink += anchorCallee(t)
	}
	for i := 0; i < 8 && uintptr(unsafe.Pointer(&here)) == at; i++ {
		runtime.GC()
	}
	before := shardWalks()
	for i := 0; i < n; i++ {
		sink += anchorCallee(t)
	}
	return shardWalks() - before, uintptr(unsafe.Pointer(&here)) != at
}

// TestAnchorsAfterStackMove checks that a caller's cache moved with its
// goroutine's stack is an anchor again after one walk (reanchor fills it
// again where it now is): its callees' reads do not walk the stack for
// the rest of the caller's activation.
func TestAnchorsAfterStackMove(t *testing.T) {
	useBenchTrace(t)
	task := &benchTask{name: "Pike St", priority: 3}
	anchorMovingCaller(task, 5) // starts the trace, learns the offsets, defines the nodes
	if !anchorOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	const calls, runs = 1000, 10
	moved := 0
	for i := 0; i < runs; i++ {
		done := make(chan [2]int)
		go func() { // a fresh stack, grown and then mostly unused
			sink += growStack(64)
			walks, m := anchorMovingCaller(task, calls)
			done <- [2]int{walks, b2i(m)}
		}()
		r := <-done
		if r[1] == 0 {
			continue
		}
		moved++
		t.Logf("after the move, %d calls walked %d times", calls, r[0])
		// A move to another P walks too (TestAnchorsSpareWalks).
		if r[0] > calls/10 {
			t.Errorf("after the stack moved, %d calls walked %d times, want at most %d", calls, r[0], calls/10)
		}
	}
	if moved == 0 {
		t.Fatalf("the stack moved in none of %d runs", runs)
	}
}

// TestFramesDeepStacks records reads through frame caches in a recursion
// deeper than maxFrames (exitprog deep), whose stacks are cut, with the
// caches and without (SUNCAT_FRAME=0: every read walks), and checks that
// the two traces hold the same events: getters, values and stacks, frame
// by frame. It also checks that stacks were cut.
func TestFramesDeepStacks(t *testing.T) {
	if !frameOn {
		t.Skip("no frame caches here")
	}
	with := runProg(t, "deep", 20, "GOMAXPROCS=1")
	without := runProg(t, "deep", 20, "GOMAXPROCS=1", "SUNCAT_FRAME=0")
	if len(with.Events) != len(without.Events) || len(with.Events) == 0 {
		t.Fatalf("%d events with frame caches, %d without", len(with.Events), len(without.Events))
	}
	cut, bad := 0, 0
	for i, e := range with.Events {
		o := without.Events[i]
		a, b := with.StackOf(e.Stack), without.StackOf(o.Stack)
		if a == nil || b == nil || e.Value != o.Value || e.Getter != o.Getter || readKey(a) != readKey(b) || a.Truncated != b.Truncated {
			if bad++; bad <= 3 {
				t.Errorf("event %d: %q on %v with frame caches, %q on %v without", i, e.Value, a, o.Value, b)
			}
			continue
		}
		if a.Truncated {
			cut++
		}
	}
	t.Logf("%d events, %d of them on cut stacks", len(with.Events), cut)
	if cut == 0 {
		t.Errorf("none of %d events has a cut stack", len(with.Events))
	}
}
