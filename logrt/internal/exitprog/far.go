//go:build !windows && !plan9

package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// far reads, n times, a run of a few calls of one getter, mostly with one
// value,
// from one of four outer functions of the same frame size (farA to farD)
// and a chain of farMid calls of a varying depth between them and the
// loop that calls the getter (farLoop): call chains that differ only far
// from the call, whose innermost frames are at the same addresses with
// the same words near them (a repeat must not be taken for one of the
// previous event when only its far callers changed). Each call prints,
// on standard output, the key of its stack as runtime.Callers sees it; at
// the end, "switches N": how many runs began at the address where the
// previous run ended, from another outer function.
func far(n int) {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	outer := []func(*farState, int, int){farA, farB, farC, farD}
	st := &farState{s: &stop{"same"}, t: &stop{"other"}, out: out}
	seed := uint32(12345)
	prevAddr, prevOuter, switches := uintptr(0), -1, 0
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		k := int(seed >> 30)
		depth := 1 + int(seed>>8)%3
		if i%2 == 1 {
			depth = st.depth // the same depth, often another outer function
		}
		st.depth = depth
		outer[k](st, depth, 1+int(seed>>16)%4)
		if st.addr == prevAddr && k != prevOuter {
			switches++
		}
		prevAddr, prevOuter = st.addr, k
	}
	fmt.Fprintln(out, "switches", switches)
}

type farState struct {
	s, t  *stop // t's value takes turns with s's in one run in three
	runs  int
	out   *bufio.Writer
	depth int
	addr  uintptr // the address of farLoop's frame, in the last run
}

// Far reads the name as -reads records a field read, and prints the key
// of the stack of the read (farNote runs on its line; the event's stack
// has the recorder, logrt.ReadString, above it).
//
//go:noinline
func (s *stop) Far(out *bufio.Writer) string { return logrt.ReadString(1, farNote(out, s.name)) }

// farNote prints the key of its caller's stack and v, and returns v.
//
//go:noinline
func farNote(out *bufio.Writer, v string) string {
	var pcs [200]uintptr
	n := runtime.Callers(2, pcs[:])
	fmt.Fprintln(out, tracefile.StackKey(runtime.CallersFrames(pcs[:n])), v)
	return v
}

//go:noinline
func farA(st *farState, depth, reps int) { farMid(st, depth, reps) }

//go:noinline
func farB(st *farState, depth, reps int) { farMid(st, depth, reps) }

//go:noinline
func farC(st *farState, depth, reps int) { farMid(st, depth, reps) }

//go:noinline
func farD(st *farState, depth, reps int) { farMid(st, depth, reps) }

//go:noinline
func farMid(st *farState, depth, reps int) {
	if depth > 0 {
		farMid(st, depth-1, reps)
		return
	}
	farLoop(st, reps)
}

//go:noinline
func farLoop(st *farState, reps int) {
	var here int
	st.addr = uintptr(unsafe.Pointer(&here))
	st.runs++
	turns := st.runs%3 == 0
	for i := 0; i < reps; i++ {
		if turns && i%2 == 1 {
			st.t.Far(st.out)
		} else {
			st.s.Far(st.out)
		}
	}
}
