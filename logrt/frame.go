package logrt

import (
	"os"
	"sync/atomic"
	"unsafe"
)

// Frame caches. While an activation of a function is live, the frames
// above it, its chain of callers, cannot change: every read of a field it
// makes has the same stack above its own frame, and the same stack
// altogether from the same site. So the instrumenter declares a FrameCache at
// the start of each function body that reads fields (the innermost
// function literal or declaration, or the body of a range-over-func loop,
// which the compiler makes a function of its own), and each read passes
// its address and the read's site index in the function (ReadStringF and
// so on, events.go). The first read of the activation takes its stack
// from the cache of the nearest caller that has one filled (an anchor,
// anchor.go), else walks the stack and interns it as any event does;
// either way it fills the cache: the shard, the tree's generation, the
// goroutine's first frame, the node of the chain above the function
// (parent), and the node of the read's site. A later
// read of the same activation, in the same shard and generation, takes
// its site's node from the cache (or finds it under parent, from the
// read's return address in the function alone),
// with no walk of the stack and no lookup of the chain, and writes its
// event through the known-context path (writeKnown), where repeats are
// counted.
//
// Each activation has its own FrameCache, zeroed by its declaration, so a
// cache never outlives the frames it describes. A function inlined into
// its caller declares its FrameCache in each inlined activation, in the
// caller's frame: the inlined body's reads have the caller's frame as
// theirs (the walk sees no frame of the inlined function), and the chain
// above it is fixed while that activation is live, so the cache is as
// true there. The FrameCache's address is not kept beyond the call (it does
// not escape, logrt's tests check that an instrumented function does not
// allocate), so it stays on the goroutine's stack.
//
// What the cache holds does not depend on addresses, except the
// goroutine's first frame (root, which tells goroutines apart for runs of
// repeats and value lanes): a goroutine whose stack grew was copied to a
// new one, where root is elsewhere. The cache notes its own address, which
// moves with the stack, and one that finds itself moved is filled again,
// by a walk: a stack moves a few times in a goroutine's life (each time it
// doubles), so that costs a walk per live activation then.
//
// A read falls back to the walk when its goroutine is not pinned to a P
// with a shard of its own (a locked shard), when it runs on another P
// than the one that filled the cache, when the tree was forgotten since
// (a new generation), or when the stack was cut at maxFrames (the cache
// is then not filled).

// frameOn says whether reads use their FrameCache: where known contexts are
// kept (ctxOn), unless SUNCAT_FRAME=0.
var frameOn = ctxOn && os.Getenv("SUNCAT_FRAME") != "0"

// frameWays is the number of sites whose nodes a FrameCache keeps, by site
// index (direct-mapped); other sites find theirs under parent.
const frameWays = 16

// A FrameCache is the cache of one activation of an instrumented function
// that reads fields. Generated code declares it (its zero value is an
// empty cache) and passes its address to ReadStringF and so on.
type FrameCache struct {
	self   uintptr // the FrameCache's own address when filled: moved with the stack if it grew
	root   uintptr // the goroutine's first frame, then
	sid    int32   // the shard's id + 1; 0: empty
	gen    uint32  // the shard's tree's generation
	parent uint32  // the node of the callers of the function's frame
	depth  int32   // the depth of the function's frame's node (root first)
	frames int32   // the frames from the function's to the goroutine's first, both included; 0: not known
	next   uint32  // the node of its callers in a stack cut cutK frames deeper than its own (cutFrom); 0: not known
	site   [frameWays]uint32
	leaf   [frameWays]uint32 // the node of site site[i]-1 (0: none)
	path   uint32            // the slot + 1 of the path it began with (path.go), 0: none
	stamp  uint32            // and that path's stamp
}

// readValueF is readValue for a read through frame cache f, at site k
// of the reading function. It must not be inlined, as readValue: its
// stack starts at the same depth.
//
//go:noinline
func readValueF(f *FrameCache, k, id uint32, v recValue) {
	if recordable() {
		r := undone
		if w.nP > 0 {
			if r = w.record(id, v, true, true, f, k); r == needSpare && w.refillNow() {
				r = w.record(id, v, true, true, f, k)
			}
		}
		if r != recorded {
			w.record(id, v, false, true, nil, 0)
		}
	}
	if delays != nil {
		delay(id)
	}
}

// hit records a read at site k of the activation whose cache f holds
// the site's node, in the shard of the goroutine's P that filled it: the
// common read, of a site read before in a live activation, written with
// none of the walk's machinery (record, fromFrame). The recorders
// (ReadStringF and so on) call it first, and readValueF only if it did
// not record the read: the common read spares a call. It reports
// whether it recorded the read; if not, nothing was written, and record
// takes the read (not recording yet, a shard with no room, a label to
// write, another P). The first read of an activation, whose cache is
// empty, goes to first. It must not be inlined: first walks from a fixed
// depth below the recorder.
//
//go:noinline
func (w *writer) hit(f *FrameCache, k, id uint32, v recValue) bool {
	i := k % frameWays
	leaf := f.leaf[i]
	if atomic.LoadInt32(&state) != stateRecording || !frameOn || w.nP == 0 {
		return false
	}
	if f.site[i] != k+1 || leaf == 0 {
		return f.sid == 0 && w.first(f, k, id, v)
	}
	s := w.pinShard()
	if s == nil {
		return false
	}
	r := undone
	if s.holds(f) {
		s.short = false
		// A literal that joins the open batch, and does not make its run
		// of one event its longest, is written at once: what writeKnown
		// then does, with none of its other cases.
		if _, ok := v.code(); ok && s.bat.run < maxBatchRun-1 && atomic.LoadInt32(&w.hasPending) == 0 && s.joins(f.root) {
			s.entry(id, leaf, v, 0)
			r = recorded
		} else {
			r, _, _ = s.writeKnown(id, leaf, f.root, v, 0)
		}
	}
	s.unpin()
	return r == recorded
}

// first records the first read of an activation, whose cache f is empty,
// from an anchor (fromAnchor), pinned once and with none of record's
// machinery; if there is none, it notes in f that it searched, so that
// record walks at once. It reports whether it recorded the read. It
// must not be inlined: fromAnchor's walk passes through it and hit to
// the recorder, as through record and readValueF.
//
//go:noinline
func (w *writer) first(f *FrameCache, k, id uint32, v recValue) bool {
	if !anchorOn {
		return false
	}
	s := w.pinShard()
	if s == nil {
		return false
	}
	r := s.fromAnchor(f, k, id, v, 3) // first, hit, the recorder
	if r == undone && f.sid == 0 {
		f.depth = searchedDepth
	}
	s.unpin()
	return r == recorded
}

// searchedDepth marks an empty FrameCache whose first read searched for
// an anchor in vain (first).
const searchedDepth = -1

// searched reports whether f is empty and its first read searched for an
// anchor in vain.
func (f *FrameCache) searched() bool { return f.sid == 0 && f.depth == searchedDepth }

// fromFrame records a read of getter id with value v at site k of the
// activation whose cache is f, in pinned shard s, from the cache, if it
// holds the site's node or its parent does. It reports what it did, or
// undone if the cache cannot tell the read's stack. It must not be
// inlined: its walk of the two innermost frames starts from its own
// frame, one below record's.
//
//go:noinline
func (s *shard) fromFrame(f *FrameCache, k, id uint32, v recValue) int {
	if !s.holds(f) {
		return undone
	}
	i := k % frameWays
	leaf := f.leaf[i]
	if f.site[i] != k+1 || leaf == 0 {
		// pcs[0] returns to record, [1] to readValueF, [2] to the
		// recorder (ReadStringF), [3] to the reading function.
		var pcs [4]uintptr
		if fpCallers(pcs[:], nil, nil) < 4 {
			return undone
		}
		node, ok := s.tree.child(int(f.depth), f.parent, pcs[3])
		if !ok {
			return undone // a new stack: record walks and interns it
		}
		f.site[i], f.leaf[i], leaf = k+1, node, node
		s.noteSite(f, k, node)
	}
	s.short = false
	r, _, _ := s.writeKnown(id, leaf, f.root, v, 0)
	return r
}

// fill fills the cache f of the activation of the event just committed
// in shard s, read at site k: its stack, of depth nodes, ends with the
// reading function's node (a read's stack has no recorder's frame).
func (s *shard) fill(f *FrameCache, k uint32, depth int) {
	t := &s.tree
	if depth < 1 || s.root == 0 {
		return
	}
	if !s.holds(f) {
		if s.walked >= 4 && anchorOn {
			// The read returned to pcs[2], in the frame fps[3].
			s.learn(s.pcs[2], s.fps[3], s.fAt, f)
			if !s.anchorless(s.pcs[2]) {
				s.reanchor(depth, s.fAt, f)
			}
		}
		*f = FrameCache{}
		f.self, f.root, f.sid, f.gen = uintptr(unsafe.Pointer(f)), s.root, int32(s.id)+1, t.gen
		f.depth = int32(depth - 1)
		if s.chain > 2 {
			f.frames = int32(s.chain - 2) // the walk's first frames are readValueF's and the recorder's
		}
		if depth > 1 {
			f.parent = t.path[depth-2]
		}
	}
	i := k % frameWays
	f.site[i], f.leaf[i] = k+1, t.path[depth-1]
	s.noteSite(f, k, f.leaf[i])
}

// holds reports whether the cache f was filled in shard s, in its tree's
// generation, where f is now.
func (s *shard) holds(f *FrameCache) bool {
	return f.sid == int32(s.id)+1 && f.gen == s.tree.gen && f.self == uintptr(unsafe.Pointer(f))
}
