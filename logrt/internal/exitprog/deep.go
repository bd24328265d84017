//go:build !windows && !plan9

package main

import "github.com/suncat-go/suncat/logrt"

// deep reads fields in n recursions deeper than the stacks a trace keeps
// (cut at logrt's maxFrames, 128 frames): each activation reads a site
// twice and another once, recurses, calls a reader of one site (which
// calls a getter) twice, and reads a third site,
// from depths that vary around the cut (the stacks of consecutive reads
// differ by a frame or two). Its trace, recorded with and without frame
// caches (SUNCAT_FRAME=0), must hold the same events with the same
// stacks.
func deep(n int) {
	vals := []string{"a", "b", "c"}
	seed := uint32(7)
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		deepRead(vals, 130+int(seed>>8)%40)
	}
}

var deepSink string

//go:noinline
func deepRead(vals []string, depth int) {
	var fc logrt.FrameCache
	for i := 0; i < 2; i++ { // the second read finds its site's node in the cache
		deepSink = logrt.ReadStringF(&fc, 0, 1, vals[(depth+i)%3])
	}
	deepSink = logrt.ReadStringF(&fc, 1, 1, vals[(depth+1)%3])
	if depth > 0 {
		deepRead(vals, depth-1)
	}
	deepOnce(vals[depth%2])
	deepOnce(vals[depth%3]) // where its stack is cut past this one's, from what the first noted (next)
	deepSink = logrt.ReadStringF(&fc, 2, 1, vals[(depth+2)%3])
}

//go:noinline
func deepOnce(v string) {
	var fc logrt.FrameCache
	deepSink = logrt.ReadStringF(&fc, 0, 1, v)
	deepSink = (&stop{v}).Name()
}
