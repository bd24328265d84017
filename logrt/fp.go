//go:build amd64 || arm64

package logrt

import (
	"runtime"
	"unsafe"
)

// Frame-pointer unwinding, in Go alone. The runtime is compiled into the
// user's program as an overlay-only package, which the go command will not
// assemble, so fpCallers cannot read the frame pointer register; instead it
// finds the slot of its own frame where its prologue saved its caller's
// frame pointer. That slot is at a fixed offset from any local variable of
// fpCallers (the compiler lays a frame out once), and calibrate finds the
// offset when the package starts: fpCallers, called in probe mode, looks
// near its local variable for its own return address (the word above the
// saved frame pointer on amd64 and arm64), and each candidate offset is
// then checked by unwinding a known chain of calls and comparing with
// runtime.Callers. If no offset passes, the runtime keeps runtime.Callers.
//
// The walk stops at a frame pointer that does not lead to a higher
// address within maxFrameGap: the frame pointer chain of a goroutine that
// C called back into crosses to the system stack there (cgo callbacks),
// and the saved frame pointers beyond it are C's, which may be anything.
// The stack of such an event ends at runtime.cgocallback.

const fpSupported = true

const maxFrameGap = 64 << 20

var (
	fpOff     int  // from fpCallers' anchor to its saved frame pointer
	fpProbing bool // fpCallers records candidate offsets instead
	fpProbePC [1]uintptr
	fpFound   []int // candidate offsets, by probe
)

// fpCallers fills pcs with the return addresses of the frames above the
// caller of its caller, by following frame pointers, as runtime.Callers(2,
// pcs) would from that caller (before inline expansion, which
// runtime.CallersFrames does for both). If root is not nil, it is set to
// the address of the last frame walked: the goroutine's first frame when
// the walk reaches it, a hint of which goroutine this is. It must not be
// inlined: it works from its own frame.
//
//go:noinline
func fpCallers(pcs []uintptr, root *uintptr) int {
	var anchor uintptr
	base := unsafe.Pointer(&anchor)
	if fpProbing {
		probe(base)
		return 0
	}
	fp := *(*unsafe.Pointer)(unsafe.Add(base, fpOff)) // the caller's frame
	n := 0
	for fp != nil && n < len(pcs) {
		pcs[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		n++
		next := *(*uintptr)(fp)
		if next <= uintptr(fp) || next-uintptr(fp) > maxFrameGap {
			break // the end of the chain, or a jump off this stack
		}
		fp = unsafe.Add(fp, next-uintptr(fp))
	}
	if root != nil {
		*root = uintptr(fp)
	}
	return n
}

// probe records, in fpFound, the offsets from base (fpCallers' anchor) of
// the slots just below each word near it that holds fpCallers' return
// address. It runs inside fpCallers' call, so that frame is live.
//
//go:noinline
func probe(base unsafe.Pointer) {
	runtime.Callers(3, fpProbePC[:]) // skipping Callers, probe, fpCallers
	const word = int(unsafe.Sizeof(uintptr(0)))
	for off := -64; off <= 512; off += word {
		if *(*uintptr)(unsafe.Add(base, off)) == fpProbePC[0] {
			fpFound = append(fpFound, off-word)
		}
	}
}

// calibrate finds fpOff and reports whether frame-pointer unwinding can
// be trusted in this program: some candidate offset must give the same
// return addresses as runtime.Callers through a chain of calls.
func calibrate() bool {
	var pad [256]uintptr // stack above the probe's window
	fpProbing = true
	calibChain(pad[:], 0, nil)
	fpProbing = false
	for _, off := range fpFound {
		fpOff = off
		var got, want [8]uintptr
		n, m := calibChain(pad[:], 4, func() (int, int) {
			return fpCallers(got[:], nil), runtime.Callers(2, want[:])
		})
		if n == len(got) && m == len(want) && got == want {
			fpFound = nil
			return true
		}
	}
	fpOff, fpFound = 0, nil
	return false
}

// calibChain calls f (or fpCallers, to probe, if f is nil) depth calls
// below its caller.
//
//go:noinline
func calibChain(pad []uintptr, depth int, f func() (int, int)) (int, int) {
	if depth > 0 {
		return calibChain(pad, depth-1, f)
	}
	if f == nil {
		fpCallers(nil, nil)
		return 0, 0
	}
	return f()
}
