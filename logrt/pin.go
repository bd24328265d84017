package logrt

import _ "unsafe" // for go:linkname

// The runtime's procPin and procUnpin, which sync.Pool uses and the
// runtime lets other packages reach (go.dev/issue/67401): procPin returns
// the id of the P (the runtime's processor) the goroutine runs on.

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// The runtime's monotonic clock, which the runtime also lets other
// packages reach: time.Since adds a call and two conversions around it.

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// currentP returns the id of the P the calling goroutine runs on, between
// 0 and GOMAXPROCS-1. The goroutine may move to another P right after.
func currentP() int {
	p := procPin()
	procUnpin()
	return p
}
