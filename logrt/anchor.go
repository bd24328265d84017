package logrt

import (
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Anchors. A frame cache (frame.go) spares the later reads of an
// activation the walk of its stack, but not the first: a function called
// many times that reads a field or two per call (a method of a few
// lines, a closure a tree walk calls at each node) walked and interned
// its whole stack at each call. Yet its callers are often live
// activations whose frame caches already hold the node of the chain above
// them: the first read of the new activation need only step up from its
// own frame to the nearest such caller, the anchor, and find the few
// nodes in between under the anchor's.
//
// The anchor is found from its frame pointer. Each function keeps its
// FrameCache at a fixed offset below its frame pointer (the compiler lays
// a frame out once, and the cache does not escape), which a walk learns
// when it fills a cache in the function's own frame. A return address
// tells the function it returns into (runtime.FuncForPC, once per address
// and shard). So a read that steps up to a frame whose function has a
// known offset finds that function's FrameCache at that offset.
//
// Why the anchor's parent is true. The frames a read steps up through
// are its own live chain of callers, so the frame reached is the live
// activation of the function the return address is in. Its FrameCache was
// zeroed when that activation began, before it called anything, so one
// that is filled was filled by that activation, in this shard and
// generation, at this address (self), and the chain above the frame has
// not changed since: the parent it holds is that of the frame now. A
// FrameCache of a function inlined into the anchor's lies elsewhere in
// the same frame, and may hold what an earlier activation left there (the
// inlined body need not run each time); so offsets are learnt only from
// reads in a function's own body, not in a body inlined into it.
//
// A string getter's call (String) has no FrameCache of its own, but it
// anchors the same way, from the getter's frame, and fills nothing.
//
// A read with no anchor within anchorFrames frames, or one whose nodes
// are not all in the tree yet, walks the stack as before.

// anchorOn says whether reads look for anchors: where frame caches are
// used (frameOn), unless SUNCAT_ANCHOR=0.
var anchorOn = frameOn && os.Getenv("SUNCAT_ANCHOR") != "0"

// anchorFrames is the number of frames above the reading function's that
// a read looks at for an anchor.
const anchorFrames = 16

// anchorSlots is the size of a shard's cache of return addresses
// (Hugo's -reads returns into several thousand).
const (
	anchorBits  = 12
	anchorSlots = 1 << anchorBits
)

// noAnchor is the offset of a function whose FrameCache has none (it was
// seen at two offsets, or the function has none).
const noAnchor = ^uintptr(0)

// A funcAnchor is what a shard knows of one function: the offset of its
// FrameCache below its frame pointer, 0 until a read learns it (in this
// shard, or in another that shared it: sharedOffsets).
type funcAnchor struct {
	off     uintptr
	entry   uintptr // the function's entry
	checked uint32  // sharedOffsets.count when the shared offsets were last looked at
}

// offset returns the offset of the function's FrameCache, or 0 if no
// shard learnt it yet.
func (f *funcAnchor) offset() uintptr {
	if f.off == 0 {
		if n := atomic.LoadUint32(&sharedOffsets.count); n != f.checked {
			f.checked = n
			f.off = sharedOffset(f.entry)
		}
	}
	return f.off
}

// Offsets shared. A shard learns a function's offset from the reads in
// the function's own body that it records; a goroutine that moves to
// another P meets there a shard that may never have recorded one, and
// whose callees' reads would walk for the rest of the activation, unable
// to find its cache. So the offsets are shared, by entry, in a table of
// all shards, lock-free (a pinned goroutine must not wait for a lock): a
// shard that learns an offset first publishes it, and one that does not
// know a function's offset looks it up there when the table has gained
// offsets since it last looked.
const sharedBits = 13

var sharedOffsets struct {
	slots [1 << sharedBits][2]uintptr // entry, offset (atomic)
	count uint32                      // atomic: the offsets published
}

// shareOffset publishes the offset off of the function at entry, unless
// it is published or the table is full where it would go.
func shareOffset(entry, off uintptr) {
	h := anchorHash(entry)
	for i := uint64(0); i < 16; i++ {
		e := &sharedOffsets.slots[(h+i)&(1<<sharedBits-1)]
		k := atomic.LoadUintptr(&e[0])
		if k == entry {
			return
		}
		if k == 0 && atomic.CompareAndSwapUintptr(&e[0], 0, entry) {
			atomic.StoreUintptr(&e[1], off)
			atomic.AddUint32(&sharedOffsets.count, 1)
			return
		}
	}
}

// sharedOffset returns the offset published for the function at entry,
// or 0.
func sharedOffset(entry uintptr) uintptr {
	h := anchorHash(entry)
	for i := uint64(0); i < 16; i++ {
		e := &sharedOffsets.slots[(h+i)&(1<<sharedBits-1)]
		switch atomic.LoadUintptr(&e[0]) {
		case entry:
			return atomic.LoadUintptr(&e[1])
		case 0:
			return 0
		}
	}
	return 0
}

func anchorHash(pc uintptr) uint64 { return uint64(pc) * 0x9e3779b97f4a7c15 >> 32 }

// A pcAnchor is what a shard knows of one return address: its function,
// and whether it lies in a body inlined into that function.
type pcAnchor struct {
	pc      uintptr
	fn      *funcAnchor
	inlined bool
}

// anchors is a shard's knowledge of functions, by return address.
type anchors struct {
	front   [anchorSlots]pcAnchor
	byPC    map[uintptr]pcAnchor
	byEntry map[uintptr]*funcAnchor
}

// lookup returns what the shard knows of return address pc.
func (a *anchors) lookup(pc uintptr) *pcAnchor {
	e := &a.front[(uint64(pc)*0x9e3779b97f4a7c15)>>(64-anchorBits)]
	if e.pc == pc && e.fn != nil {
		return e
	}
	p, ok := a.byPC[pc]
	if !ok {
		p = a.resolve(pc)
		a.byPC[pc] = p
	}
	*e = p
	return e
}

// resolve finds the function of return address pc.
func (a *anchors) resolve(pc uintptr) pcAnchor {
	p := pcAnchor{pc: pc}
	var entry uintptr
	if f := runtime.FuncForPC(pc - 1); f != nil {
		entry = f.Entry()
		if outer := runtime.FuncForPC(entry); outer == nil || outer.Name() != f.Name() {
			p.inlined = true
		}
	}
	p.fn = a.byEntry[entry]
	if p.fn == nil {
		p.fn = &funcAnchor{entry: entry}
		if entry == 0 {
			p.fn.off = noAnchor
		}
		a.byEntry[entry] = p.fn
	}
	return p
}

// learn notes that the reading function whose read returns to site (from
// its recorder) has its frame at fp and the FrameCache f in it, at at:
// fp and at were read together, and if f is no longer at at, its stack
// moved since (a call grew it), and fp is no longer its frame.
func (s *shard) learn(site, fp, at uintptr, f *FrameCache) {
	if s.anch == nil {
		s.anch = &anchors{byPC: make(map[uintptr]pcAnchor), byEntry: make(map[uintptr]*funcAnchor)}
	}
	p := s.anch.lookup(site) // which may grow the stack
	if p.inlined || p.fn.off == noAnchor || uintptr(unsafe.Pointer(f)) != at {
		return
	}
	off := fp - at
	switch {
	case fp <= at || off >= 1<<20:
		p.fn.off = noAnchor // not in the frame: it escaped, or the walk was not the function's
	case p.fn.off == 0:
		p.fn.off = off
		shareOffset(p.fn.entry, off)
	case p.fn.off != off:
		p.fn.off = noAnchor
	}
}

// reanchor fills again the cache of the nearest caller of the reading
// function, among the frames of the walk just made (record), that has an
// anchor's offset and a cache filled in this activation, but in another
// shard or generation (the goroutine moved to another P, or the tree was
// forgotten) or at another address (the goroutine's stack moved, and
// with it the cache, whose root is then of the old stack), so that the
// reads and the callees that follow find it. A cache that is not empty
// was filled in this activation, wherever it was: the activation zeroed
// it when it began, and a move copies it as it is. The walk's stack is
// the shard's path, of n nodes; f is the reading function's cache, at at
// when the walk was made.
func (s *shard) reanchor(n int, at uintptr, f *FrameCache) {
	var local byte
	base := unsafe.Pointer(&local)
	// The reading function's frame is fps[3]; fps[j] is that of the
	// function pcs[j-1] returns into, whose parent is node n-j.
	for j := 4; j < s.walked && j <= 4+anchorFrames && n-j >= 0; j++ {
		p := s.anch.lookup(s.pcs[j-1]) // which may grow the stack
		off := p.fn.offset()
		if off == 0 || off == noAnchor || uintptr(unsafe.Pointer(f)) != at || s.fps[j] < uintptr(base)+off {
			continue
		}
		a := s.fps[j] - off
		c := (*FrameCache)(unsafe.Add(base, a-uintptr(base)))
		if c.sid == 0 {
			continue // not filled in this activation
		}
		if c.self != a || c.sid != int32(s.id)+1 || c.gen != s.tree.gen {
			*c = FrameCache{self: a, root: s.root, sid: int32(s.id) + 1, gen: s.tree.gen}
			c.depth, c.parent = int32(n-j+2), s.tree.path[n-j+1]
			if s.chain > j {
				c.frames = int32(s.chain - j + 1) // the reading function's are chain-2, j-3 frames in
			}
		} else if c.next == 0 {
			c.noteNext(s.chain, j-3, s.tree.path[n-j+1], n-j+2) // j-3 frames out of the reading function
		}
		return
	}
}

// walkFrames is the number of frames record walks (s.pcs).
const walkFrames = maxFrames + 1

// dropped returns the frames beyond the cut of a stack whose walk by
// record had l frames to the goroutine's first, l > walkFrames (cutAt).
func dropped(l int) int { return l - cutAt(walkFrames, l-walkFrames) }

// cutFrom returns where the nodes of an event whose first frame is in
// frames in from the function of anchor c begin, its stack walked by
// record with rec frames of the recorder before it (2 for a read, 1
// for a getter's call): the node of c's callers and its depth, if the
// event's stack is cut where c's is (cutAt), or neither is; or, if it
// is cut cutK frames deeper, c's callers' node in such a stack, when a
// walk noted it (next, reanchor). A stack cut at maxFrames keeps its
// innermost frames down to a depth from the goroutine's first frame
// that is a multiple of cutK: an interpreter's recursion finds its
// anchors but where a callee's depth crosses such a depth, and a
// long-lived activation just short of one finds its callees' stacks in
// next. A cache that does not know its frames is taken for one that
// might be of a cut stack: only events too shallow to be cut are alike.
func (c *FrameCache) cutFrom(in, rec int) (pathStart, bool) {
	st := pathStart{c.parent, c.depth, c.gen}
	if c.frames == 0 {
		return st, int(c.depth)+in+rec+2 < maxFrames-cutK-1
	}
	a, x := int(c.frames)+2, int(c.frames)+in+rec
	switch {
	case a < walkFrames && x < walkFrames:
		return st, true // neither is cut
	case a <= walkFrames || x <= walkFrames:
		// One is cut and the other not, or one is as long as the walk,
		// whose first frame fpRoot counts as beyond it.
		return st, false
	case dropped(x) == dropped(a):
		return st, true
	case dropped(x) == dropped(a)+cutK && c.next != 0:
		return pathStart{c.next, c.depth - cutK, c.gen}, true
	}
	return st, false
}

// noteNext notes in c, the cache of a function whose frame a walk cut
// at maxFrames passed through, the node of its callers in that walk's
// stack, parent, at depth (its frame's node's), if the walk was cut
// cutK frames deeper than c's own stack (cutFrom): chain is the walk's
// frames, in of them from its first to c's function.
func (c *FrameCache) noteNext(chain, in int, parent uint32, depth int) {
	a := int(c.frames) + 2
	if c.frames == 0 || a <= walkFrames || chain <= walkFrames || chain != a+in {
		return
	}
	if dropped(chain) == dropped(a)+cutK && depth == int(c.depth)-cutK {
		c.next = parent
	}
}

// fromAnchor records a read of getter id with value v at site k of the
// activation whose cache is f, empty, in pinned shard s, from the nearest
// anchor among its callers, and fills f; or, with f nil, a getter's call
// (String), from the nearest anchor among the getter's callers. Its walk
// starts from its own frame: first is the index in it of the return
// address into the reading function (3), or the getter (2). It reports
// what it did, or undone if it found no anchor or a node is new. It must
// not be inlined.
//
//go:noinline
func (s *shard) fromAnchor(f *FrameCache, k, id uint32, v recValue, first int) int {
	if s.anch == nil || !anchorOn {
		return undone
	}
	// A read: pcs[0] returns to record (or first), [1] to readValueF (or
	// hit), [2] to the recorder, [3] to the reading function (the stack's
	// first frame), [4] to its caller. A getter's call: [0] to record, [1]
	// to String, [2] to the getter (the first frame), [3] to its caller.
	// fps[j] is the frame of the function pcs[j-1] returns into, for
	// j >= 1.
	var pcs [5 + anchorFrames]uintptr
	var fps [6 + anchorFrames]uintptr
	// Most anchors are near, the reading function's caller most of all:
	// walk to it, then on to anchorNear frames, and all only if none is.
	walkedAt := uintptr(unsafe.Pointer(&pcs[0])) // findAnchor checks the stack did not move since
	want := first + 3
	n := fpCallers(pcs[:want], nil, fps[:want+1])
	if n < first+2 || !s.lookForAnchor(pcs[first]) {
		return undone
	}
	c, j := s.findAnchor(pcs[:n], fps[:n+1], first+2, walkedAt)
	for _, more := range [...]int{anchorNear, len(pcs)} {
		if c != nil || n < want {
			break // found, or the chain ended
		}
		from := n
		want = more
		n = fpMore(pcs[:want], fps[:want+1], n, walkedAt)
		c, j = s.findAnchor(pcs[:n], fps[:n+1], from, walkedAt)
	}
	s.anchorFound(pcs[first], c != nil)
	if c == nil {
		return undone
	}
	// The anchor's frame is fps[j], j-1-first frames out from the first
	// frame of the event's stack.
	in := j - 1 - first
	st, ok := c.cutFrom(in, first-1)
	if !ok {
		return undone
	}
	node, parent, slot, e := s.nodesFrom(st, pcs[first:j], unsafe.Pointer(&pcs[0]), walkedAt)
	if node == 0 {
		return undone
	}
	root := c.root
	s.short = false
	if f == nil {
		r, _, _ := s.writeKnown(id, node, root, v, 0) // a getter's call: batched as a read is
		return r
	}
	at := uintptr(unsafe.Pointer(f))
	*f = FrameCache{self: at, root: root, sid: c.sid, gen: c.gen}
	f.depth, f.parent = st.depth+int32(in), parent
	if c.frames != 0 {
		f.frames = c.frames + int32(in)
	}
	switch {
	case e == nil:
		f.site[k%frameWays], f.leaf[k%frameWays] = k+1, node
		s.learn(pcs[first], fps[first+1], at, f)
	case e.learnt:
		e.begin(f, slot, k) // its function's offset was learnt from the read that made it
	default:
		e.begin(f, slot, k)
		s.learn(pcs[first], fps[first+1], at, f)
		e.learnt = true
	}
	r, _, _ := s.writeKnown(id, node, root, v, 0)
	return r
}

// nodesFrom returns the node that the frames path (innermost first: the
// read's site first, the return into the anchor's function last) lead to
// from anchor c, and its parent, from the shard's paths or by looking
// them up (and then keeps the path): e is the path kept, if any, in
// slot. node is 0 if a node is not in the tree, or if the stack moved
// since the walk (base is an address on it, which was walkedAt then: a
// lookup may grow the stack, and what was read of c may be stale).
func (s *shard) nodesFrom(st pathStart, path []uintptr, base unsafe.Pointer, walkedAt uintptr) (node, parent uint32, slot int, e *pathEntry) {
	for len(path) > pathMax && pathOn {
		cut := len(path) - pathMax
		if st.node = s.pathEnd(st, path[cut:]); st.node == 0 {
			return 0, 0, -1, nil
		}
		st.depth += pathMax
		path = path[:cut]
	}
	slot, e = s.findPath(st, path)
	if e != nil {
		node, parent = e.end, e.parent
	} else if node, parent = s.pathNodes(st, path); node == 0 {
		return 0, 0, -1, nil
	}
	if uintptr(base) != walkedAt {
		return 0, 0, -1, nil
	}
	if e == nil && slot >= 0 {
		e = s.paths.put(slot, st, path, node, parent)
	}
	return node, parent, slot, e
}

// findPath returns the slot of the path pcs from st (path.go), and the
// path if the shard keeps it; the slot is -1 for a path too long to
// keep, or if paths are not kept.
func (s *shard) findPath(st pathStart, pcs []uintptr) (int, *pathEntry) {
	if len(pcs) > pathMax || !pathOn {
		return -1, nil
	}
	if s.paths == nil {
		s.paths = new(pathMemo)
	}
	slot := pathSlot(st.node, pcs)
	return slot, s.paths.find(slot, st, pcs)
}

// pathEnd returns the node that the path pcs from st leads to, from the
// shard's paths or by looking it up (and then keeps the path), or 0 if a
// node is not in the tree.
func (s *shard) pathEnd(st pathStart, pcs []uintptr) uint32 {
	slot, e := s.findPath(st, pcs)
	if e != nil {
		return e.end
	}
	end, parent := s.pathNodes(st, pcs)
	if end != 0 && slot >= 0 {
		s.paths.put(slot, st, pcs, end, parent)
	}
	return end
}

// pathNodes looks up the frames pcs (innermost first) from st, the node
// of the frame that the last of them returns into: it returns the node
// of pcs[0] and its parent, or 0 if a node is not in the tree.
func (s *shard) pathNodes(st pathStart, pcs []uintptr) (node, parent uint32) {
	t := &s.tree
	node, d := st.node, int(st.depth)
	for i := len(pcs) - 1; i >= 0; i-- {
		parent = node
		var ok bool
		if node, ok = t.child(d, node, pcs[i]); !ok {
			return 0, 0
		}
		d++
	}
	return node, parent
}

// anchorNear is the number of frames fromAnchor walks first.
const anchorNear = 9

// findAnchor returns the nearest anchor among the frames fps[j] of the
// walk pcs, fps, from fps[from] on, and its j. walkedAt is where pcs[0]
// was before the walk: none is returned once the stack moved (anchorAt).
func (s *shard) findAnchor(pcs, fps []uintptr, from int, walkedAt uintptr) (*FrameCache, int) {
	for j := from; j < len(pcs); j++ {
		if c := s.anchorAt(pcs[j-1], fps[j], unsafe.Pointer(&pcs[0]), walkedAt); c != nil {
			return c, j
		}
	}
	return nil, 0
}

// anchorAt returns the FrameCache of the frame at fp, of the function
// return address pc is in, if it is an anchor for shard s: filled in this
// shard and generation, where it is now. base is an address on the same
// stack, below fp, from which the cache's address is reached; walkedAt is
// where base was when fp was read. If base is no longer there, a lookup
// grew the stack and moved it since, and fp is an address in the stack
// the move freed: no pointer is made from it (one into a freed span is a
// bad pointer to the garbage collector, and to checkptr).
func (s *shard) anchorAt(pc, fp uintptr, base unsafe.Pointer, walkedAt uintptr) *FrameCache {
	p := s.anch.lookup(pc) // which may grow the stack, and move base
	off := p.fn.offset()
	if off == 0 || off == noAnchor || uintptr(base) != walkedAt || fp < uintptr(base)+off {
		return nil
	}
	a := fp - off
	c := (*FrameCache)(unsafe.Add(base, a-uintptr(base)))
	if c.self != a || c.sid != int32(s.id)+1 || c.gen != s.tree.gen {
		return nil
	}
	return c
}

// A read whose callers have no cache to find keeps looking in vain:
// their stacks are cut at maxFrames (an interpreter's recursion), or the
// nearest reading caller is more than anchorFrames frames up. The search
// cost go-jsonnet, all of whose reads walk, a tenth of its run. So a
// shard counts, by read site (its return address, hashed into
// anchorSites counters), the reads that found no anchor since the last
// that found one; past anchorMisses, a read looks only once in
// anchorRetry times.
const (
	anchorMisses = 16
	anchorRetry  = 64
	anchorSites  = 4096
)

func anchorSite(site uintptr) uint32 { return uint32(uint64(site) * 0x9e3779b97f4a7c15 >> 52) }

// lookForAnchor reports whether the read at site is to look for an
// anchor.
func (s *shard) lookForAnchor(site uintptr) bool {
	if !s.anchorless(site) {
		return true
	}
	s.anchorSkip++
	return s.anchorSkip%anchorRetry == 0
}

// anchorless reports whether the reads at site have found no anchor of
// late: a walk from there leaves its callers' caches alone (reanchor).
func (s *shard) anchorless(site uintptr) bool {
	return s.anchorMiss != nil && s.anchorMiss[anchorSite(site)] >= anchorMisses
}

// anchorFound notes whether the read at site found an anchor.
func (s *shard) anchorFound(site uintptr, found bool) {
	s.anchorLooks++
	if s.anchorMiss == nil {
		if found {
			return
		}
		s.anchorMiss = new([anchorSites]uint8)
	}
	m := &s.anchorMiss[anchorSite(site)]
	switch {
	case found:
		*m = 0
	case *m < 255:
		*m++
	}
}
