//go:build !windows && !plan9

package main

import (
	"bufio"
	"fmt"
	"iter"
	"os"
	"runtime"
	"sync"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// frames reads fields as the rewrite of -reads makes a function do, with
// a logrt.FrameCache per activation (logrt/frame.go): n rounds, each from
// one of four outer functions through a chain of a varying depth (call
// chains that differ only far from the reads), reading six sites in a
// loop (more than a cache keeps), in recursion (reads before and after
// the recursive call, in the same activation), in closures, in the body
// of a range-over-func loop whose iterator calls it from varying depths,
// and across a growth of the goroutine's stack; then four goroutines that
// read in turns and yield the processor between reads (moving between
// Ps). Each read prints the key of its stack as runtime.Callers sees it
// and its value, under one lock held across the read, so the trace's
// order is the printed order.
func frames(n int) {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fo := &frameOut{out: out}
	outer := []func(*frameOut, int, int){frameA, frameB, frameC, frameD}
	seed := uint32(99)
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		outer[seed>>30](fo, 1+int(seed>>8)%3, int(seed>>16))
	}
	done := make(chan bool)
	go func() { frameGrow(fo, 0); done <- true }()
	<-done
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			frameTurns(fo, g, n/4+1)
		}()
	}
	wg.Wait()
}

type frameOut struct {
	mu  sync.Mutex
	out *bufio.Writer
}

var frameSink string

// note takes the lock that the read it is an argument of holds (the
// caller unlocks after the read), prints the key of its caller's stack
// and v, and returns v.
//
//go:noinline
func (o *frameOut) note(v string) string {
	o.mu.Lock()
	var pcs [200]uintptr
	n := runtime.Callers(2, pcs[:])
	fmt.Fprintln(o.out, tracefile.StackKey(runtime.CallersFrames(pcs[:n])), v)
	return v
}

var frameValues = [...]string{"a", "b", "a", "a", "c", "a"}

//go:noinline
func frameA(o *frameOut, depth, r int) { frameMid(o, depth, r) }

//go:noinline
func frameB(o *frameOut, depth, r int) { frameMid(o, depth, r) }

//go:noinline
func frameC(o *frameOut, depth, r int) { frameMid(o, depth, r) }

//go:noinline
func frameD(o *frameOut, depth, r int) { frameMid(o, depth, r) }

//go:noinline
func frameMid(o *frameOut, depth, r int) {
	if depth > 0 {
		frameMid(o, depth-1, r)
		return
	}
	frameLoop(o, r)
	frameRec(o, 1+r%4)
	frameIter(o, r)
	frameAnchor(o, r)
}

// frameAnchor calls functions that read once a call (whose reads take
// their stacks from its cache, an anchor, logrt/anchor.go): directly,
// through a frame that reads nothing, and through a func value that is
// one of two readers; and a getter, directly and through a frame. It reads in its own body on some calls only (its
// cache is then empty when it calls them), and in a small reader on
// others (which a compiler may inline, leaving the reader's cache in its
// frame with what an earlier call under other callers put there).
//
//go:noinline
func frameAnchor(o *frameOut, r int) {
	var fc logrt.FrameCache
	if r%3 == 0 {
		frameSink = frameInlined(o, "inlined")
		o.mu.Unlock()
	}
	if r%2 == 0 {
		frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("own"))
		o.mu.Unlock()
	}
	f := frameOnce
	if r%5 == 0 {
		f = frameOnce2
	}
	m := frameMulti
	if r%7 == 0 {
		m = frameMulti2
	}
	for i := 0; i < 3; i++ {
		frameOnce(o, "direct")
		frameThrough(o)
		f(o, "value")
		m(o, i+r)
		frameFar(o, 9+(r+i)%3)
		frameGetter(o, "getter")
		frameGetterThrough(o)
	}
}

// frameGetter is a getter (logrt.String, no cache of its own), whose
// call takes its stack from its caller's cache where that is filled.
//
//go:noinline
func frameGetter(o *frameOut, v string) {
	frameSink = logrt.String(1, o.note(v))
	o.mu.Unlock()
}

//go:noinline
func frameGetterThrough(o *frameOut) { frameGetter(o, "getter through") }

func frameInlined(o *frameOut, v string) string {
	var fc logrt.FrameCache
	return logrt.ReadStringF(&fc, 0, 1, o.note(v))
}

//go:noinline
func frameOnce(o *frameOut, v string) {
	var fc logrt.FrameCache
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(v))
	o.mu.Unlock()
}

//go:noinline
func frameOnce2(o *frameOut, v string) {
	var fc logrt.FrameCache
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(v+"2"))
	o.mu.Unlock()
}

//go:noinline
func frameThrough(o *frameOut) { frameOnce(o, "through") }

// frameFar calls frameMulti through n frames that read nothing: its
// anchor is more than 8 frames up, and its path is kept in parts.
//
//go:noinline
func frameFar(o *frameOut, n int) {
	if n > 0 {
		frameFar(o, n-1)
		return
	}
	frameMulti(o, n)
}

// frameMulti reads three sites a call, the first of them chosen by i:
// its activations begin from the paths of its anchor (logrt/path.go),
// with the nodes of the sites that earlier activations read.
//
//go:noinline
func frameMulti(o *frameOut, i int) {
	var fc logrt.FrameCache
	if i%2 == 0 {
		frameSink = logrt.ReadStringF(&fc, 2, 1, o.note("multi even"))
		o.mu.Unlock()
	}
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("multi"))
	o.mu.Unlock()
	frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("multi"))
	o.mu.Unlock()
}

// frameMulti2 reads as frameMulti does, at sites of the same indexes,
// and is called from the same place through a func value.
//
//go:noinline
func frameMulti2(o *frameOut, i int) {
	var fc logrt.FrameCache
	if i%2 == 1 {
		frameSink = logrt.ReadStringF(&fc, 2, 1, o.note("multi2 odd"))
		o.mu.Unlock()
	}
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("multi2"))
	o.mu.Unlock()
	frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("multi2"))
	o.mu.Unlock()
}

// frameLoop reads six sites, a few times each, one site three times
// with one value (a run of repeats), and in two closures.
//
//go:noinline
func frameLoop(o *frameOut, r int) {
	var fc logrt.FrameCache
	for i := 0; i < 2+r%3; i++ {
		v := frameValues[(r+i)%len(frameValues)]
		frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(v))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("one"))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 2, 1, o.note(v))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 3, 1, o.note("three"))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 4, 1, o.note(v))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 5, 1, o.note("five"))
		o.mu.Unlock()
	}
	for i := 0; i < 3; i++ {
		frameSink = logrt.ReadStringF(&fc, 7, 1, o.note("same"))
		o.mu.Unlock()
	}
	read := func(v string) {
		var fc logrt.FrameCache
		frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(v))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 1, 1, o.note(v))
		o.mu.Unlock()
	}
	read("x")
	frameSink = logrt.ReadStringF(&fc, 6, 1, o.note("after"))
	o.mu.Unlock()
	func() {
		var fc logrt.FrameCache // a closure's reads use its own, as the rewrite's
		read("y")
		frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("in"))
		o.mu.Unlock()
	}()
}

// frameRec reads before and after it recurses, in the same activation.
//
//go:noinline
func frameRec(o *frameOut, depth int) {
	var fc logrt.FrameCache
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("pre"))
	o.mu.Unlock()
	if depth > 0 {
		frameRec(o, depth-1)
	}
	frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("post"))
	o.mu.Unlock()
	frameSink = logrt.ReadStringF(&fc, 2, 1, o.note("pre"))
	o.mu.Unlock()
}

// frameSeq yields from varying depths: the loop body's callers change
// between its calls.
func frameSeq(r int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < 3; i++ {
			if !frameYield(yield, i, (r+i)%3) {
				return
			}
		}
	}
}

//go:noinline
func frameYield(yield func(int) bool, i, depth int) bool {
	if depth > 0 {
		return frameYield(yield, i, depth-1)
	}
	return yield(i)
}

// frameIter reads in the body of a range-over-func loop, with a cache
// declared in the body (the rewrite's), and after it with the function's.
//
//go:noinline
func frameIter(o *frameOut, r int) {
	var fc logrt.FrameCache
	for i := range frameSeq(r) {
		var fc logrt.FrameCache
		frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(frameValues[i]))
		o.mu.Unlock()
		frameSink = logrt.ReadStringF(&fc, 1, 1, o.note(frameValues[i]))
		o.mu.Unlock()
	}
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("iter"))
	o.mu.Unlock()
}

// frameGrow reads, grows the goroutine's stack (which moves it) by deep
// recursion, calls a reader twice, and reads again in the same
// activation.
//
//go:noinline
func frameGrow(o *frameOut, depth int) {
	var fc logrt.FrameCache
	var pad [64]byte
	frameSink = logrt.ReadStringF(&fc, 0, 1, o.note("grow"))
	o.mu.Unlock()
	if depth < 3 {
		frameGrow(o, depth+1)
	} else {
		frameDeep(o, 4000, pad)
	}
	// Anchored in this frame's cache, moved with the stack: the first
	// walks, and fills it again where it now is (reanchor).
	frameOnce(o, "after grow")
	frameOnce(o, "after grow")
	frameSink = logrt.ReadStringF(&fc, 1, 1, o.note("grow"))
	o.mu.Unlock()
}

//go:noinline
func frameDeep(o *frameOut, n int, pad [64]byte) byte {
	if n == 0 {
		return pad[0]
	}
	pad[n%64]++
	return frameDeep(o, n-1, pad)
}

// frameTurns reads in turns with other goroutines, yielding the
// processor between its reads.
//
//go:noinline
func frameTurns(o *frameOut, g, n int) {
	var fc logrt.FrameCache
	for i := 0; i < n; i++ {
		// A value of its own at each read: a repeat would take its
		// place before the reads of others in between (doc/design.md).
		frameSink = logrt.ReadStringF(&fc, 0, 1, o.note(fmt.Sprint(g, " ", i)))
		o.mu.Unlock()
		runtime.Gosched()
	}
}
