//go:build amd64 || arm64

package logrt

import "unsafe"

// getfp returns the frame pointer of its caller (fp_*.s).
func getfp() unsafe.Pointer

const fpSupported = true

// fpCallers fills pcs with the return addresses of the frames above the
// caller of its caller, by following frame pointers, as runtime.Callers(2,
// pcs) would from that caller (before inline expansion, which
// runtime.CallersFrames does for both). It is about an order of magnitude
// cheaper than runtime.Callers. It must not be inlined: it skips its own
// frame by position.
//
//go:noinline
func fpCallers(pcs []uintptr) int {
	// The frame of fpCallers, then that of its caller (String).
	fp := getfp()
	if fp == nil {
		return 0
	}
	fp = *(*unsafe.Pointer)(fp)
	n := 0
	for n < len(pcs) && fp != nil {
		pcs[n] = *(*uintptr)(unsafe.Pointer(uintptr(fp) + unsafe.Sizeof(uintptr(0))))
		fp = *(*unsafe.Pointer)(fp)
		n++
	}
	return n
}
