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
	sameOff   int  // from fpFind's anchor to its saved frame pointer
	fpProbing bool // fpCallers and fpFind record candidate offsets instead
	fpProbePC [1]uintptr
	fpFound   []int // candidate offsets, by probe

	// fpSameOK says that fpFind was calibrated: a known context can be
	// told from its frames without walking them (repeat.go).
	fpSameOK bool
)

// fpCallers fills pcs with the return addresses of the frames above the
// caller of its caller, by following frame pointers, as runtime.Callers(2,
// pcs) would from that caller (before inline expansion, which
// runtime.CallersFrames does for both). If end is not nil, it is set to
// where the chain ends: its last frame, the goroutine's first, a hint of
// which goroutine this is, also for a walk cut at len(pcs) (fpRoot; 0 if
// it is too far), and the frames beyond the cut. If fps is not
// nil (at least one longer than pcs), it is filled with the proof of the
// walk that fpFind checks: the address of each frame walked (fps[i] holds
// the frame whose return address is pcs[i]), then the word saved in the
// last one (the next frame pointer, or what ended the walk). It must not
// be inlined: it works from its own frame.
//
//go:noinline
func fpCallers(pcs []uintptr, end *walkEnd, fps []uintptr) int {
	var anchor uintptr
	base := unsafe.Pointer(&anchor)
	if fpProbing {
		probe(base)
		return 0
	}
	fp := *(*unsafe.Pointer)(unsafe.Add(base, fpOff)) // the caller's frame
	n, ended := 0, false
	for fp != nil && n < len(pcs) {
		pcs[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		next := *(*uintptr)(fp)
		if fps != nil {
			fps[n], fps[n+1] = uintptr(fp), next
		}
		n++
		if next <= uintptr(fp) || next-uintptr(fp) > maxFrameGap {
			ended = true
			break // the end of the chain, or a jump off this stack
		}
		fp = unsafe.Add(fp, next-uintptr(fp))
	}
	if end != nil {
		root, beyond := uintptr(fp), 0
		if n == len(pcs) && fp != nil {
			root, beyond = fpRoot(fp, end.ways)
		}
		end.root, end.beyond, end.frames = root, beyond, n
		if !ended && root != 0 {
			end.frames = n + beyond // fp, the first frame beyond, counted in beyond
		}
	}
	return n
}

// fpMore goes on with a walk of fpCallers that took n frames into pcs
// and fps and was cut by their length, up to len(pcs) frames, and returns
// the frames it holds then. walkedAt is where pcs[0] was during that walk:
// if the stack moved since, the frame pointers it read are of the old
// stack, and the walk stops where it was.
func fpMore(pcs, fps []uintptr, n int, walkedAt uintptr) int {
	if uintptr(unsafe.Pointer(&pcs[0])) != walkedAt || n == 0 {
		return n
	}
	var local uintptr
	base := unsafe.Pointer(&local) // on the walked stack, as the frames are
	last, next := fps[n-1], fps[n]
	for n < len(pcs) {
		if next <= last || next-last > maxFrameGap {
			break // the end of the chain, or a jump off this stack
		}
		fp := unsafe.Add(base, next-uintptr(base))
		pcs[n] = *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		last, next = next, *(*uintptr)(fp)
		fps[n], fps[n+1] = last, next
		n++
	}
	return n
}

// A walkEnd is where a walk of fpCallers ended: the last frame of the
// chain (root), and for a walk cut at its length, the frames of the
// chain beyond the cut (beyond). frames is the chain's frames from the
// first walked to root, both included (if root is 0, those walked). ways,
// if not nil, is what the shard's last searches for the first frame
// beyond a cut found (fpRoot).
type walkEnd struct {
	root   uintptr
	beyond int
	frames int
	ways   *rootWays
}

// maxRootFrames is the most frames fpRoot follows past a walk cut at its
// length. Past it the stack has no first frame: its events are written
// one by one, in records of their own, and end every shard's runs (a
// recursion 1,148 levels deep read a field a million times in 12 MB
// and 0.44 s, against 1,280 bytes and 0.01 s at 1,146, with 1,024). A
// search that long is made once: later ones stop at its waypoints.
const maxRootFrames = 8192

// fpRoot returns the goroutine's first frame, following frame pointers
// from the frame at fp (one a walk cut at its length did not take), and
// the frames from fp to it, fp's included; or 0 if it is more than
// maxRootFrames frames away. A stack cut at maxFrames is told apart from
// other goroutines' by its root, as any other (its events join batches,
// its activations' caches are filled), and is cut where its depth says
// (cutAt).
//
// The search costs a step a frame, up to maxRootFrames: in a recursion
// as deep as a chain of thousands of handlers, where each level's first
// read walks, recording cost the square of the depth (a chain of 1,600
// handlers, 1.6 M reads: 2.7 s of CPU against 0.07 s at 100). So the
// steps taken are marked with waypoints (ways, a shard's: every
// rootStride frames, each with the two words its frame holds and what
// the search found beyond it), and a later search that comes upon a
// waypoint whose frame holds the same words takes its answer from there.
// The words are those a walk reads: a frame at the same address holding
// the same saved frame pointer and return address was called from the
// same place by a caller at the same address, on the same stack, whose
// first frame has not moved (a stack that moves changes every address).
// What lies above that caller is taken to be what lay there before,
// unchecked: the first frame is, and so is the number of frames, unless
// other callers of the same total frame size came to stand in between,
// more or fewer of them; the stack is then cut up to cutK-1 frames
// deeper or shallower than its depth says (cutAt), and keeps its
// innermost frames all the same.
func fpRoot(fp unsafe.Pointer, ways *rootWays) (uintptr, int) {
	var seen rootWays // the waypoints of this search
	w := 0            // the next of ways above fp
	for i := 1; i <= maxRootFrames; i++ {
		next := *(*uintptr)(fp)
		pc := *(*uintptr)(unsafe.Add(fp, unsafe.Sizeof(uintptr(0))))
		if ways != nil {
			for w < ways.n && ways.w[w].fp < uintptr(fp) {
				w++
			}
			if w < ways.n {
				if way := &ways.w[w]; way.fp == uintptr(fp) && way.next == next && way.pc == pc {
					if root, beyond, ok := way.answer(i); ok {
						ways.learn(&seen, i, way)
						return root, beyond
					}
				}
			}
			if (i-1)%rootStride == 0 && seen.n < len(seen.w) {
				seen.w[seen.n] = rootWay{fp: uintptr(fp), next: next, pc: pc, dist: i}
				seen.n++
			}
		}
		if next <= uintptr(fp) || next-uintptr(fp) > maxFrameGap {
			ways.found(&seen, uintptr(fp), i)
			return uintptr(fp), i
		}
		fp = unsafe.Add(fp, next-uintptr(fp))
	}
	ways.found(&seen, 0, maxRootFrames+1)
	return 0, 0
}

// rootStride is the number of frames between two waypoints of a search.
const rootStride = 64

// rootWays are the waypoints of a shard's searches for a first frame,
// innermost (lowest address) first: the first rootWayCount of a search,
// which a later search from a cut near it meets first.
type rootWays struct {
	n int
	w [rootWayCount]rootWay
}

// rootWayCount is the most waypoints kept: 1,024 frames' worth.
const rootWayCount = 1024/rootStride + 1

// A rootWay is a frame a search passed, the two words it held, and what
// lay beyond it: the first frame (root, 0 if none was found) and the
// frames from this one to it, this one's included (beyond: exact if root
// is not 0, else a bound: the first frame is further than that).
type rootWay struct {
	fp, next, pc uintptr
	root         uintptr
	beyond       int
	dist         int // while a search goes on: the step it was passed at
}

// answer returns what a search at its step i learns from the waypoint:
// the root and the frames to it from where the search began, or that
// there is none within maxRootFrames (root 0); ok is false if the
// waypoint cannot tell (its search gave up too near it).
func (way *rootWay) answer(i int) (root uintptr, beyond int, ok bool) {
	total := i - 1 + way.beyond
	switch {
	case way.root != 0 && total <= maxRootFrames:
		return way.root, total, true
	case total >= maxRootFrames+1:
		return 0, 0, true
	}
	return 0, 0, false
}

// found keeps the waypoints seen by a search that ended at its step end,
// at root (0: none within maxRootFrames, end is then maxRootFrames+1), in
// place of the ways kept.
func (ways *rootWays) found(seen *rootWays, root uintptr, end int) {
	if ways == nil {
		return
	}
	for k := 0; k < seen.n; k++ {
		way := &seen.w[k]
		way.root, way.beyond = root, end-way.dist+1
	}
	*ways = *seen
}

// learn keeps the waypoints seen by a search that took its answer from
// way at its step i, ahead of the ways at and above way, as many as fit.
func (ways *rootWays) learn(seen *rootWays, i int, way *rootWay) {
	for k := 0; k < seen.n; k++ {
		s := &seen.w[k]
		s.root, s.beyond = way.root, i-s.dist+way.beyond
	}
	at := 0
	for at < ways.n && &ways.w[at] != way {
		at++
	}
	for k := at; k < ways.n && seen.n < len(seen.w); k++ {
		seen.w[seen.n] = ways.w[k]
		seen.n++
	}
	*ways = *seen
}

// fpFind returns the index in c of the entry of the site of a call of
// getter id (the return address two frames above the caller of its
// caller, and the frame it returns to, ctxIndex; -1 if the chain is
// shorter), and whether that entry
// is the call's known context, its frames still those above the caller:
// if fpCallers walked them from the same caller, its
// first frame at the same address, and each frame of the chain still
// holding the same saved frame pointer and return address. The walk is
// then the same walk, so the stack is the same stack, however the frames
// came to be there (a frame that returned and was called again from the
// same places holds the same words; one called from anywhere else holds
// another return address or another saved frame pointer, somewhere on
// the chain, however far from the call). Each word it reads is one the
// walk would read: it stops at the first that differs. The frames'
// addresses are known, so the loads do not wait for each other, as a
// walk's do. It must not be inlined: it works from its own frame.
//
//go:noinline
func fpFind(c *ctxCache, id uint32) (int, bool) {
	var anchor uintptr
	base := unsafe.Pointer(&anchor)
	if fpProbing {
		probe(base)
		return -1, false
	}
	const word = unsafe.Sizeof(uintptr(0))
	fp := *(*unsafe.Pointer)(unsafe.Add(base, sameOff)) // the caller's frame
	f := fp
	for k := 0; k < 2; k++ {
		if f == nil {
			return -1, false
		}
		next := *(*uintptr)(f)
		if next <= uintptr(f) || next-uintptr(f) > maxFrameGap {
			return -1, false
		}
		f = unsafe.Add(f, next-uintptr(f))
	}
	i := ctxIndex(*(*uintptr)(unsafe.Add(f, word)), *(*uintptr)(f), id)
	e := &c.e[i]
	n := e.n
	if n == 0 || e.id != id || uintptr(fp) != e.walk.fps[0] {
		return i, false
	}
	if e.skip > 0 {
		e.skip-- // the site's stack changed lately: walk it (ctxEntry.missed)
		return i, false
	}
	pcs, fps := &e.walk.pcs, &e.walk.fps
	for j := 0; ; j++ {
		if *(*uintptr)(fp) != fps[j+1] || *(*uintptr)(unsafe.Add(fp, word)) != pcs[j] {
			e.missed()
			return i, false
		}
		if j+1 == n {
			e.backoff = 0
			return i, true
		}
		fp = unsafe.Add(fp, fps[j+1]-fps[j])
	}
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
// return addresses as runtime.Callers through a chain of calls. It then
// calibrates fpFind (fpSameOK).
func calibrate() bool {
	var pad [256]uintptr // stack above the probe's window
	fpProbing = true
	calibChain(pad[:], 0, nil)
	fpProbing = false
	found := fpFound
	fpFound = nil
	for _, off := range found {
		fpOff = off
		var got, want [8]uintptr
		n, m := calibChain(pad[:], 4, func() (int, int) {
			return fpCallers(got[:], nil, nil), runtime.Callers(2, want[:])
		})
		if n == len(got) && m == len(want) && got == want {
			fpSameOK = calibrateSame(pad[:])
			return true
		}
	}
	fpOff = 0
	return false
}

// calibrateSame finds sameOff: fpFind must know the frames that
// fpCallers walked from the same function, and not those walked from
// another depth.
func calibrateSame(pad []uintptr) bool {
	fpProbing = true
	calibChain(pad, 0, func() (int, int) { fpFind(nil, 0); return 0, 0 })
	fpProbing = false
	found := fpFound
	fpFound = nil
	c := new(ctxCache)
	for _, off := range found {
		sameOff = off
		*c = ctxCache{}
		step, at, hits := 0, -1, [3]bool{}
		f := func() (int, int) {
			if step == 0 {
				var pcs [16]uintptr
				var fps [17]uintptr
				if n := fpCallers(pcs[:], nil, fps[:]); n >= 3 {
					at = ctxIndex(pcs[2], fps[3], 1)
					e := &c.e[at]
					e.n, e.id, e.walk = n, 1, new(ctxWalk)
					copy(e.walk.pcs[:], pcs[:n])
					copy(e.walk.fps[:], fps[:n+1])
				}
			} else {
				i, hit := fpFind(c, 1)
				hits[step] = hit && i == at
			}
			return 0, 0
		}
		// From one call site: walk at depth 4, then look there (the same
		// frames) and at depth 3 (others).
		for _, depth := range [...]int{4, 4, 3} {
			calibChain(pad, depth, f)
			step++
		}
		if hits[1] && !hits[2] {
			return true
		}
	}
	sameOff = 0
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
		fpCallers(nil, nil, nil)
		return 0, 0
	}
	return f()
}
