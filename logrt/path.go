package logrt

import "os"

// Paths from anchors. An anchored read (anchor.go) finds its node by
// looking up, under the anchor's parent, each frame between the anchor
// and the reading function: two lookups at least (the call in the
// anchor's function, and the read's own site), each a likely miss in the
// processor's caches, since the edge cache spans megabytes. And the new
// activation's later reads each look their own site up under the parent
// found. Yet a function is mostly called again and again from the same
// place (a loop, a sort's comparisons, a tree walk's visitor), under the
// same anchor node, through the same frames, reading the same sites.
//
// So a shard keeps, by the anchor's node and the return addresses from
// the read's site up to the anchor's frame (a path), the nodes that path
// led to: the read's node and its function's parent. A path of the same
// frames under the same node leads to the same nodes while the tree's
// generation lasts (a node is the whole chain of return addresses above
// it), so the lookups are spared without proof beyond the comparison of
// the key. A path also keeps the nodes of the other sites that the
// activations it began read (site index -> node, as a FrameCache does):
// each new activation starts with them, and its reads of those sites
// find their node in their own cache, as a loop's later reads do. The
// path's first site is the read's, so a path belongs to one function's
// body (a return address is in one body, inlined or not), whose site
// indexes it keeps.
//
// A FrameCache filled from a path notes it (slot and stamp), and the
// nodes its later reads look up are added to the path, while the path is
// still the one the cache began with (the stamp: a slot taken by another
// path, or emptied by a new generation, is not written).

// pathOn says whether anchored reads keep their paths: where they look
// for anchors (anchorOn), unless SUNCAT_PATHS=0.
var pathOn = anchorOn && os.Getenv("SUNCAT_PATHS") != "0"

// pathBits is log2 of the number of paths a shard keeps: 4,096 of 224
// bytes, 0.9 MB a shard that anchors a read. An evaluator's anchors
// serve many paths each: of CUE's 49 M anchored first reads in a run,
// 72% found an anchor whose last path was another one. 1,024 paths
// missed often enough to cost CUE 5% and Hugo 8% of their -reads run;
// 16,384 spread past the processor's caches.
const pathBits = 12

// pathMax is the most return addresses a path holds: the frames between
// a read and an anchor further up are kept in parts, the outer ones
// first, each from the node the part before it leads to (its end).
const pathMax = 8

// A pathEntry is one path, and the nodes it leads to.
type pathEntry struct {
	n      int32 // the return addresses in pcs; 0: empty
	gen    uint32
	anchor uint32 // where it starts (pathStart)
	depth  int32
	pcs    [pathMax]uintptr // innermost first: pcs[0] is the read's site
	stamp  uint32           // which path of the slot this is
	learnt bool             // its reading function's offset was learnt (anchor.go)
	end    uint32           // the node of the read's site
	parent uint32           // the node of its function's callers
	site   [frameWays]uint32
	leaf   [frameWays]uint32 // the node of site site[i]-1 (0: none)
}

// pathMemo is a shard's paths.
type pathMemo struct {
	e     [1 << pathBits]pathEntry
	stamp uint32
}

// pathSlot is the slot of the path pcs under the anchor's parent.
func pathSlot(anchor uint32, pcs []uintptr) int {
	h := uint64(anchor) * 0x9e3779b97f4a7c15
	for _, pc := range pcs {
		h = (h ^ uint64(pc)) * 0xc2b2ae3d27d4eb4f
	}
	return int(h >> (64 - pathBits))
}

// A pathStart is where a path starts: the anchor's parent, or the node
// that the outer part of a path longer than pathMax leads to, its depth,
// and the tree's generation.
type pathStart struct {
	node  uint32
	depth int32
	gen   uint32
}

// find returns the path pcs from st, in slot, or nil.
func (m *pathMemo) find(slot int, st pathStart, pcs []uintptr) *pathEntry {
	e := &m.e[slot]
	if int(e.n) != len(pcs) || e.anchor != st.node || e.depth != st.depth || e.gen != st.gen {
		return nil
	}
	for i, pc := range pcs {
		if e.pcs[i] != pc {
			return nil
		}
	}
	return e
}

// put keeps the path pcs from st, in slot, leading to end and parent,
// in place of what the slot held.
func (m *pathMemo) put(slot int, st pathStart, pcs []uintptr, end, parent uint32) *pathEntry {
	if m.stamp++; m.stamp == 0 {
		m.stamp = 1
	}
	e := &m.e[slot]
	*e = pathEntry{n: int32(len(pcs)), gen: st.gen, anchor: st.node, depth: st.depth, stamp: m.stamp, end: end, parent: parent}
	copy(e.pcs[:], pcs)
	return e
}

// begin fills the empty cache f from path e, of slot, for site k, and
// notes the path in it.
func (e *pathEntry) begin(f *FrameCache, slot int, k uint32) {
	f.site, f.leaf = e.site, e.leaf
	i := k % frameWays
	f.site[i], f.leaf[i] = k+1, e.end
	e.site[i], e.leaf[i] = k+1, e.end
	f.path, f.stamp = uint32(slot)+1, e.stamp
}

// noteSite adds to the path that cache f began with, if it still holds
// it, the node leaf of site k.
func (s *shard) noteSite(f *FrameCache, k, leaf uint32) {
	if f.path == 0 || s.paths == nil {
		return
	}
	if e := &s.paths.e[f.path-1]; e.stamp == f.stamp {
		i := k % frameWays
		e.site[i], e.leaf[i] = k+1, leaf
	}
}
