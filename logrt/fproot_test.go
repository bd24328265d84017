//go:build amd64 || arm64

package logrt

import (
	"runtime"
	"testing"
	"unsafe"
)

// rootsHere walks one frame from its caller and searches on for the
// goroutine's first frame twice, without waypoints and with ways, and
// returns both answers.
//
//go:noinline
func rootsHere(ways *rootWays) (plain, kept [2]uintptr) {
	var pcs [1]uintptr
	a, b := walkEnd{}, walkEnd{ways: ways}
	fpCallers(pcs[:], &a, nil)
	fpCallers(pcs[:], &b, nil)
	return [2]uintptr{a.root, uintptr(a.beyond)}, [2]uintptr{b.root, uintptr(b.beyond)}
}

// rootsSmall and rootsLarge recurse n levels with frames of two sizes,
// then check rootsHere at the bottom, or go on in the other one for more
// levels.
//
//go:noinline
func rootsSmall(t *testing.T, ways *rootWays, n int, then []int) int {
	if n > 0 {
		return rootsSmall(t, ways, n-1, then) + 1
	}
	return rootsCheck(t, ways, then, rootsLarge)
}

//go:noinline
func rootsLarge(t *testing.T, ways *rootWays, n int, then []int) int {
	var pad [24]uintptr
	pad[n%24] = uintptr(n)
	if n > 0 {
		return rootsLarge(t, ways, n-1, then) + int(pad[n%24]&1)
	}
	return rootsCheck(t, ways, then, rootsSmall)
}

// rootsCheck compares the two searches, then recurses on with next for
// then[0] levels, if any.
func rootsCheck(t *testing.T, ways *rootWays, then []int, next func(*testing.T, *rootWays, int, []int) int) int {
	plain, kept := rootsHere(ways)
	if plain != kept {
		t.Errorf("first frame %#x, %d frames away; with waypoints %#x, %d", plain[0], plain[1], kept[0], kept[1])
	}
	if plain[0] == 0 {
		rootsGaveUp++
	}
	if len(then) > 0 {
		return next(t, ways, then[0], then[1:])
	}
	return 0
}

var rootsGaveUp int

// Searches for the first frame that take their answer from the
// waypoints of earlier searches find what a search from scratch finds:
// deeper and shallower than before, through frames of other sizes,
// beyond maxRootFrames, on a stack that moved as it grew, and on another
// goroutine's stack.
func TestRootWaypoints(t *testing.T) {
	if !useFP {
		t.Skip("no frame pointers here")
	}
	var ways rootWays
	rootsGaveUp = 0
	for _, depths := range [][]int{
		{300}, {300}, {310}, {290}, {900}, {1500}, {1500}, {200, 400}, {200, 400},
		{100, 100, 100, 100}, {2000}, {50, 1200}, {700}, {1100}, {1300}, {40},
		{9000}, {8000}, {8400}, {4000, 4000}, {8300}, {300},
	} {
		rootsSmall(t, &ways, depths[0], depths[1:])
		done := make(chan bool)
		go func() { rootsLarge(t, &ways, depths[0], depths[1:]); done <- true }()
		<-done
	}
	if ways.n == 0 || rootsGaveUp == 0 {
		t.Errorf("%d waypoints kept, %d searches gave up: the test does not reach what it tests", ways.n, rootsGaveUp)
	}
}

// fakeChain lays n frames of two words (the next frame's address, a
// return address) out in words, frame 0 innermost, each the caller of
// the one before, the last the goroutine's first (its next is 0), and
// returns the address of frame i.
func fakeChain(words []uintptr, n int) func(i int) unsafe.Pointer {
	at := func(i int) unsafe.Pointer { return unsafe.Pointer(&words[2*i]) }
	for i := 0; i < n; i++ {
		words[2*i], words[2*i+1] = 0, 0x1000+uintptr(i%7)
		if i+1 < n {
			words[2*i] = uintptr(at(i + 1))
		}
	}
	return at
}

// A waypoint whose frame holds other words than when it was left is not
// taken: a search that meets it walks on.
func TestRootWaypointChanged(t *testing.T) {
	words := make([]uintptr, 2*1000)
	at := fakeChain(words, 900)
	var ways rootWays
	if root, beyond := fpRoot(at(0), &ways); root != uintptr(at(899)) || beyond != 900 || ways.n == 0 {
		t.Fatalf("fpRoot: %#x, %d frames, %d waypoints; want %#x, 900", root, beyond, ways.n, uintptr(at(899)))
	}
	first := ways // waypoints at frames 0, 64, 128, ...
	if root, beyond := fpRoot(at(10), &ways); root != uintptr(at(899)) || beyond != 890 {
		t.Fatalf("fpRoot from frame 10: %#x, %d frames; want %#x, 890", root, beyond, uintptr(at(899)))
	}
	// Frame 64, the first waypoint a search from frame 30 meets, now has
	// frame 701 as its caller: 35 frames, then 199 (whose waypoints, at
	// 704 and above, still hold).
	ways = first
	words[2*64], words[2*64+1] = uintptr(at(701)), 0x2000
	if root, beyond := fpRoot(at(30), &ways); root != uintptr(at(899)) || beyond != 35+199 {
		t.Errorf("after the change: %#x, %d frames; want %#x, %d", root, beyond, uintptr(at(899)), 35+199)
	}
	// A chain longer than maxRootFrames has no first frame to find, from
	// its waypoints either.
	long := make([]uintptr, 2*9000)
	at = fakeChain(long, 9000)
	ways = rootWays{}
	for _, from := range []int{100, 0, 150, 175} {
		if root, beyond := fpRoot(at(from), &ways); root != 0 || beyond != 0 {
			t.Errorf("9,000 frames, from frame %d: %#x, %d frames; want none", from, root, beyond)
		}
	}
	runtime.KeepAlive(words)
	runtime.KeepAlive(long)
}
