package logrt

import (
	"runtime"
	"sync/atomic"
)

// Stacks are interned as a call-site tree: a node is its parent node plus
// one frame (a return address, symbolized once in a kindFrames record),
// so a new stack whose callers were seen before costs one node per new
// frame, a few bytes (format.go). The writer remembers the path of the
// previous stack and starts each lookup where the new stack leaves it.

// maxNodes bounds the trees the writer keeps in memory, over all shards:
// past it, the tree of the shard that adds a node is forgotten and new
// stacks are defined afresh (node ids go on rising).
const maxNodes = 1 << 20

type callTree struct {
	next     uint32    // the id of the next node; node 0 is the root
	children flatTable // (return address, parent node) -> child node (flat.go)
	pcIDs    map[uintptr]uint32
	nextPC   uint32
	size     int    // nodes in children since the last reset
	gen      uint32 // the resets so far (a known context's node is of one)

	// The stack being interned, root first, from where it leaves the
	// previous one; its nodes are known (in path) up to lastN.
	last  [maxFrames + 1]uintptr
	lastN int
	path  [maxFrames + 1]uint32

	// The children found or added lately at each depth (memo), and
	// over all depths (edges).
	memo     [maxFrames + 1]memoSet
	edges    []flatSlot // edgeSlots long (a: return address, b: parent, id: child)
	edgesMap []byte

	lookups int // the lookups of one edge so far (child), for tests
}

// The edge cache holds edges of the call-site tree found lately, by a
// hash of the edge (return address, parent): a lookup that the memo of
// its depth misses finds most of them here, in one line of an array of
// 2 MiB (one huge page where the kernel gives one, slots_linux.go),
// rather than in the table, which grows to tens of MiB (Hugo's -reads:
// the table's probes were a fifth of the run with a cache of 4,096).
const edgeBits = 17

const edgeSlots = 1 << edgeBits

// edgeSlot is the slot of an edge, hashed as the table hashes it.
func edgeSlot(pc uintptr, parent uint32) int {
	return int(flatIndex(uint64(pc), parent, 64-edgeBits))
}

// find returns the child of parent through pc: from the edge cache, or
// the table (and then keeps it in the cache).
func (t *callTree) find(pc uintptr, parent uint32) (uint32, bool) {
	e := &t.edges[edgeSlot(pc, parent)]
	if e.a == uint64(pc) && e.b == parent && e.id != 0 {
		return e.id, true
	}
	id, ok := t.children.find(uint64(pc), parent)
	if ok {
		e.a, e.b, e.id = uint64(pc), parent, id
	}
	return id, ok
}

// A memoSet holds the edges of the call-site tree (return address, parent
// node -> child node) found or added lately at one depth. A stack seldom
// leaves the previous one by more than a few frames, and where it does,
// the frames it takes instead are usually among the few last taken at
// that depth (the calls of one function's body to its getters and to
// itself, in turn): those are found here, in three entries read together,
// instead of in the table, at a hash and a probe each.
type memoSet struct {
	e    [memoWays]memoEdge
	next uint32 // the entry the next remember replaces
}

const memoWays = 3

type memoEdge struct {
	pc         uintptr
	parent, id uint32 // id 0: empty
}

// find returns the child of parent through pc, if the set holds it.
func (m *memoSet) find(pc uintptr, parent uint32) (uint32, bool) {
	for i := range m.e {
		if e := &m.e[i]; e.pc == pc && e.parent == parent && e.id != 0 {
			return e.id, true
		}
	}
	return 0, false
}

// remember adds an edge, in place of the oldest.
func (m *memoSet) remember(pc uintptr, parent, id uint32) {
	m.e[m.next] = memoEdge{pc, parent, id}
	if m.next++; m.next == memoWays {
		m.next = 0
	}
}

// A stackRef is an event's stack: an existing node, or new nodes under
// parent, one per pcID, the last of which is the stack.
type stackRef struct {
	leaf   uint32 // an existing node, if pcIDs is empty
	parent uint32
	from   int // the depth (root first) of the first new node
	depth  int // the stack's nodes
	pcIDs  []uint32
}

func (t *callTree) reset() {
	t.gen++
	t.children.release()
	t.pcIDs = make(map[uintptr]uint32)
	t.size, t.lastN = 0, 0
	t.memo = [maxFrames + 1]memoSet{}
	freeSlots(t.edgesMap)
	t.edges, t.edgesMap = makeSlots(edgeSlots)
	if t.next == 0 {
		t.next = 1
	}
}

// intern finds the stack pcs (innermost first) in the tree, defining the
// frames of new return addresses on the way, and returns the reference an
// event writes. A stack cut at maxFrames (cut: its walk stopped there;
// a read's stack is a frame shorter than a getter's, without the
// recorder's) has as its outermost node the marker pc 0 (pcID 0, never
// defined). The walk starts where the stack leaves the shard's previous
// one, and only that part is copied.
func (t *callTree) intern(s *shard, pcs []uintptr, cut bool) (*stackRef, bool) {
	st := &s.ref
	st.pcIDs = st.pcIDs[:0]
	n, first := len(pcs), 0 // the stack's nodes; node k (root first) is pcs[n-1-k]
	k := 0
	if cut {
		n, first = n+1, 1 // and node 0 is the cut marker
		if t.lastN > 0 && t.last[0] == 0 {
			k = 1
		} else {
			t.lastN, t.last[0] = 0, 0
		}
	}
	m := t.lastN
	if m > n {
		m = n
	}
	k = commonRoot(t.last[:m], pcs, k, n)
	for i := k; i < n; i++ {
		if i >= first {
			t.last[i] = pcs[n-1-i]
		}
	}
	node := uint32(0)
	if k > 0 {
		node = t.path[k-1]
	}
	for ; k < n; k++ {
		id, ok := t.memo[k].find(t.last[k], node)
		if !ok {
			if id, ok = t.find(t.last[k], node); !ok {
				break
			}
			t.memo[k].remember(t.last[k], node, id)
		}
		t.path[k], node = id, id
	}
	t.lastN = k // the nodes known so far, until commit adds the new ones
	st.leaf, st.parent, st.from, st.depth = node, node, k, n
	for _, pc := range t.last[k:n] {
		pid, ok := t.pcIDs[pc]
		if !ok && pc != 0 {
			if pid = s.defineFrames(pc); pid == 0 {
				return nil, false
			}
			t.pcIDs[pc] = pid
		}
		st.pcIDs = append(st.pcIDs, pid)
	}
	return st, true
}

// child returns the child of node parent, at depth (root first),
// through return address pc, if the tree has it.
func (t *callTree) child(depth int, parent uint32, pc uintptr) (uint32, bool) {
	if depth < 0 || depth >= len(t.memo) {
		return 0, false
	}
	t.lookups++
	m := &t.memo[depth]
	if id, ok := m.find(pc, parent); ok {
		return id, true
	}
	id, ok := t.find(pc, parent)
	if ok {
		m.remember(pc, parent, id)
	}
	return id, ok
}

// commonRoot returns how many nodes, root first, a stack of n nodes shares
// with last (root first), knowing that the first k agree; node k of the
// stack is pcs[n-1-k] (pcs is innermost first).
func commonRoot(last, pcs []uintptr, k, n int) int {
	for j := n - 1 - k; k < len(last) && j >= 0 && j < len(pcs) && last[k] == pcs[j]; j-- {
		k++
	}
	return k
}

// put writes the stack part of an event: u new nodes, then either u the
// distance from next back to the existing node, or u that distance for
// the new nodes' parent and u the pc id of each new node.
func (st *stackRef) put(b []byte, next uint32) int {
	n := putUvarint(b, uint64(len(st.pcIDs)))
	if len(st.pcIDs) == 0 {
		return n + putUvarint(b[n:], uint64(next-st.leaf))
	}
	n += putUvarint(b[n:], uint64(next-st.parent))
	for _, id := range st.pcIDs {
		n += putUvarint(b[n:], uint64(id))
	}
	return n
}

// commit adds the event's new nodes to the tree once the event is in the
// trace, and makes its stack the one the next lookup starts from.
func (t *callTree) commit(st *stackRef) {
	parent := st.parent
	for i := range st.pcIDs {
		id := t.next
		t.next++
		t.children.add(uint64(t.last[st.from+i]), parent, id)
		t.memo[st.from+i].remember(t.last[st.from+i], parent, id)
		t.path[st.from+i] = id
		parent = id
	}
	t.size += len(st.pcIDs)
	if len(st.pcIDs) > 0 && atomic.AddInt64(&w.nodes, int64(len(st.pcIDs))) > maxNodes {
		atomic.AddInt64(&w.nodes, -int64(t.size))
		t.reset()
		return
	}
	t.lastN = st.depth
}

// defineFrames writes the frames of return address pc (more than one
// where calls were inlined) and returns its new pc id, or 0 if the record
// could not be written.
func (s *shard) defineFrames(pc uintptr) uint32 {
	type frame struct {
		fn, file string
		line     int
	}
	var frames [8]frame
	fs := frames[:0]
	size := 3 * 10
	// With frame pointers pc is a physical frame's return address, and
	// the 0 after it makes CallersFrames list the calls inlined there;
	// runtime.Callers lists those itself, one pc each.
	in := []uintptr{pc, 0}
	if !useFP {
		in = in[:1]
	}
	it := runtime.CallersFrames(in)
	for {
		f, more := it.Next()
		if f.Function != "" && (!useFP || !elided(f.Function, f.File)) {
			fs = append(fs, frame{fn: f.Function, file: f.File, line: f.Line})
			size += stringLen(f.Function) + stringLen(f.File) + 10
		}
		if !more {
			break
		}
	}
	b := s.reserve(size)
	if b == nil {
		return 0
	}
	s.tree.nextPC++
	id := s.tree.nextPC
	n := putUvarint(b, uint64(id))
	n += putUvarint(b[n:], uint64(len(fs)))
	for _, f := range fs {
		n += putString(b[n:], f.fn)
		n += putString(b[n:], f.file)
		n += putUvarint(b[n:], uint64(f.line))
	}
	s.commit(kindFrames, n)
	return id
}
