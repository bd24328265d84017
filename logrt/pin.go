package logrt

import _ "unsafe" // for go:linkname

// The runtime's procPin and procUnpin, which sync.Pool uses and the
// runtime lets other packages reach (go.dev/issue/67401): procPin returns
// the id of the P (the runtime's processor) the goroutine runs on.

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// currentP returns the id of the P the calling goroutine runs on, between
// 0 and GOMAXPROCS-1. The goroutine may move to another P right after.
func currentP() int {
	p := procPin()
	procUnpin()
	return p
}
