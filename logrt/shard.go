package logrt

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A shard writes records into chunks of its own, with its own
// dictionaries of stacks and values: goroutines that record at the same
// time write to different shards and do not wait for each other. Each P
// has a shard, written by the goroutine pinned to it (pinned.go); a few
// more shards, each under its lock, take the rest (lockShard). The
// goroutines of one P keep to one shard, so the stacks and values they
// record are defined once, in that shard.
// Every event and mark has its place in the one order of all records of
// all shards, by the clock or by one atomic counter (writer.order,
// format.go).
type shard struct {
	mu      sync.Mutex
	id      int
	chunk   []byte // the mapped chunk being written
	index   int    // its index in the file
	off     int    // next free byte in chunk
	last    int64  // time of the shard's previous event or mark
	lastSeq uint64 // sequence number of the shard's previous event or mark
	written int64  // bytes of the records it committed
	records int    // records in the chunk, for its trailer (trailer.go)
	events  int    // events among them

	// What the common read (hit) reads and writes, together: a few cache
	// lines, rather than one in each part of the shard.
	rep      repeatRun            // the last event, to count repeats of (repeat.go)
	bat      batch                // the open batch (batch.go)
	memo     *[nodeMemos]nodeMemo // the last event on nodes, once the shard batches
	lastNode uint32               // the node of the stream's last event (batch.go)
	short    bool                 // a pinned record found no room and was left undone
	wake     bool                 // the mapper is to be started when the record ends
	tick     bool                 // the tick's timer is to be armed when the record ends (tick.go)
	capped   int32                // atomic: 1 once no chunk is left for it within the size cap

	tree    callTree               // interned stacks (stack.go)
	ref     stackRef               // the stack of the event being written
	values  valueDict              // the values it defined (values.go)
	pcs     [1 + maxFrames]uintptr // String's frame, then the event's stack (record)
	root    uintptr                // and its outermost frame (fpCallers)
	nextStr uint32

	fps         [2 + maxFrames]uintptr // the walk's frames, its proof (fpCallers)
	roots       rootWays               // where the searches for a first frame went (fpRoot)
	walked      int                    // frames the last walk took (record)
	chain       int                    // the frames of its chain, to the goroutine's first (walkEnd.frames); 0: not known
	walks       int                    // the walks so far (record), for tests
	opened      int                    // the batches opened so far (openBatch), for tests
	anchorLooks int                    // the searches for an anchor so far (fromAnchor), for tests
	anchorMiss  *[anchorSites]uint8    // by read site, the reads that found no anchor since one did (anchor.go)
	anchorSkip  int                    // the searches left out (lookForAnchor)
	fAt         uintptr                // the address of the reading function's frame cache then
	slot        int                    // the known context's entry it went into, or -1
	word        uint64                 // writer.seq when the last event took its place (order)
	marks       uint64                 // and writer.marks before it did
	ctx         *ctxCache              // the known contexts, once the shard has one
	anch        *anchors               // functions' frame caches, once the shard fills one (anchor.go)
	paths       *pathMemo              // the paths from anchors, once a read found one (path.go)
	seen        *[seenSlots]seenValue  // the last strings written, by address (values.go)
	read        bool                   // the record is a read's (record)
	depth       int                    // the nodes of the stack of the event just committed, or 0 (event)

	// A P's shard (pinned.go) is written only by goroutines pinned to its
	// P, and takes its chunks from the mapper.
	pinned bool
	cur    *mappedChunk   // the chunk being written
	wants  int32          // atomic: 1 once it asked for a spare
	begun  int32          // atomic: the chunks it began (mapSpare)
	spare  unsafe.Pointer // atomic: a *mappedChunk the mapper made for it
}

func newShard(id int, pinned bool) *shard {
	s := &shard{id: id, pinned: pinned}
	s.tree.reset()
	s.rep.forget()
	s.slot = -1
	return s
}

// lockedShards is the number of shards with a lock of a new trace: where
// the Ps have shards of their own, two, for marks, for Ps beyond those
// shards and for records a P's shard left undone; else twice the number
// of goroutines that can run at once, so that two running goroutines
// rarely pick the same one, within bounds.
func lockedShards(pinned int) int {
	if pinned > 0 {
		return 2
	}
	n := 2 * runtime.GOMAXPROCS(0)
	if n < 2 {
		n = 2
	}
	if n > 32 {
		n = 32
	}
	return n
}

// lockShard locks and returns a shard with a lock: the one for the
// goroutine's P (the runtime's processors, GOMAXPROCS of them) if it is
// free, else the next free one, else it waits for the first. Goroutines
// that run at the same time run on different Ps, and so mostly record in
// different shards; and the goroutines of one P keep to one shard, where
// the stacks and values they record are already defined. A shard takes
// its first chunk here (begin); one that finds none left within the size
// cap is passed over, and the record goes to a shard that has a chunk.
func (w *writer) lockShard() *shard {
	for {
		s := w.pickShard()
		if s.chunk != nil || s.begin() {
			return s
		}
		s.mu.Unlock() // w.capped is set: the next pick has a chunk
	}
}

// pickShard locks and returns the shard a record goes to (lockShard).
func (w *writer) pickShard() *shard {
	locked := w.shards[:len(w.shards)-w.nP]
	n := len(locked)
	s := locked[currentP()%n]
	if s.mu.TryLock() {
		if s.usable() {
			return s
		}
		s.mu.Unlock()
	}
	for k := 1; k < n; k++ {
		if t := locked[(s.id+k)%n]; t.mu.TryLock() {
			if t.usable() {
				return t
			}
			t.mu.Unlock()
		}
	}
	if atomic.LoadInt32(&w.capped) != 0 {
		s = locked[0] // it has chunk 0
	}
	s.mu.Lock()
	return s
}

// begin gives the locked shard s, which has no chunk yet, its first one.
// It reports false if the size cap leaves none for it: the other shards'
// chunks, the Ps' spares among them, took the room, and the record is to
// go to one of those (w.capped is set). Any other failure stops
// recording (nextChunk), and the record then finds no room, as every
// record after it.
func (s *shard) begin() bool {
	if s.advance() {
		return true
	}
	return atomic.LoadInt32(&w.capped) == 0 || atomic.LoadInt32(&state) == stateOff
}

// usable reports whether the locked shard s is to take a record: once
// the size cap left a P's shard without a chunk, only shards that have
// one are, so that records fill the room left in their chunks rather
// than stop recording for want of a new one. s.mu is held.
func (s *shard) usable() bool {
	return s.chunk != nil || atomic.LoadInt32(&w.capped) == 0
}

func (s *shard) now() int64 {
	t := w.now()
	if t < s.last {
		t = s.last
	}
	return t
}

// release ends a record in a locked shard: it unlocks it. A panic inside
// the writer (a bug, or a system error surfacing as one) must not take
// the host program down: it stops recording, and the record being written
// stays uncommitted, so the reader skips it.
func (s *shard) release() {
	if r := recover(); r != nil {
		w.fail(fmt.Errorf("internal error: %v", r))
	}
	tick := s.tick
	s.tick = false
	s.mu.Unlock()
	if tick {
		w.armTick()
	}
}

// newChunk hands out a chunk and maps it.
func (w *writer) newChunk() ([]byte, int, error) {
	unlock := w.lockChunks()
	i, err := w.takeChunk()
	unlock()
	if err != nil {
		return nil, 0, err
	}
	b, err := w.mapChunk(i)
	if err != nil {
		return nil, 0, err
	}
	prefault(w.f, i, b)
	return b, i, nil
}

// mapChunk maps chunk i of the trace.
func (w *writer) mapChunk(i int) ([]byte, error) {
	b, err := mapChunk(w.f, i)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", w.path, err)
	}
	return b, nil
}

func (s *shard) writeChunkRecord() {
	b := s.reserve(10)
	if b == nil {
		return
	}
	n := putUvarint(b, uint64(s.id))
	order := 0
	if byClock {
		order = 1
	}
	s.commit(kindChunk, n+putUvarint(b[n:], uint64(order)))
}

// reserve returns room for a payload of at most n bytes in the shard's
// chunk, moving to a new chunk (advance) when needed. A record always
// leaves room for a commit word after it, so the record after the last
// one of a chunk is the padding that fills it, written only once the next
// chunk has begun (and noteRoom bytes are kept for a note, writeNote): the last chunk of a stream always holds a zero commit
// word after its last record (a reader tells a cut file by its absence).
func (s *shard) reserve(n int) []byte {
	if s.bat.at != 0 {
		s.endBatch()
	}
	need := 4 + n + 3 + 4 + noteRoom
	if need > chunkSize-headerSize {
		return nil
	}
	if s.chunk == nil || s.off+need > len(s.chunk) {
		if !s.advance() {
			return nil
		}
	}
	return s.chunk[s.off+4 : s.off+4+n]
}

// advance moves the shard to a new chunk, which starts with the record
// that names its shard, and then pads the chunk it leaves. A P's shard
// takes the spare the mapper made for it, or, if there is none yet, marks
// the record short and stays where it is.
func (s *shard) advance() bool {
	next, index, spare, ok := s.nextChunk()
	if !ok {
		return false
	}
	prev, prevIndex, prevOff, prevCur := s.chunk, s.index, s.off, s.cur
	records, events := s.records, s.events
	s.chunk, s.index, s.off, s.cur = next, index, 0, spare
	s.records, s.events = 0, 0
	if s.pinned {
		atomic.AddInt32(&s.begun, 1)
	}
	w.countChunk(index)
	s.writeChunkRecord()
	if prev != nil {
		putTrailer(prev, prevIndex, prevOff, records, events)
		s.leave(prev, prevIndex, prevOff, prevCur)
	}
	return true
}

// nextChunk returns the shard's next chunk: a spare for a P's shard
// (marking the record short if there is none yet), else a chunk handed
// out and mapped now.
func (s *shard) nextChunk() (next []byte, index int, spare *mappedChunk, ok bool) {
	if s.pinned {
		if spare = s.takeSpare(); spare == nil {
			s.short = true
			return nil, 0, nil, false
		}
		return spare.b, spare.index, spare, true
	}
	next, index, err := w.newChunk()
	if err != nil && s.chunk == nil && s.id != 0 && errors.Is(err, errFull) {
		atomic.StoreInt32(&w.capped, 1) // the record goes elsewhere (begin)
		return nil, 0, nil, false
	}
	if err != nil {
		w.stop(s, err)
		return nil, 0, nil, false
	}
	return next, index, nil, true
}

// leave pads the chunk the shard left, from off, and hands it to the
// mapper (cur, a P's shard's) or unmaps it. It is padded only once the
// next chunk has begun, so that a process killed in between leaves a
// stream that ends in a zero commit word, never a full chunk with no next
// one (a cut, to the reader).
func (s *shard) leave(chunk []byte, index, off int, cur *mappedChunk) {
	pad := len(chunk) - off
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&chunk[off])), uint32(kindPad)|uint32(pad-4)<<8)
	writeThrough(chunk, index, off, 4)
	s.written += int64(pad)
	if s.pinned {
		w.retire(cur)
	} else {
		unmapChunk(chunk)
	}
}

// commit publishes the record whose payload of n bytes was written after
// the commit word at s.off.
func (s *shard) commit(kind byte, n int) {
	if kind != kindRepeat {
		s.rep.forget()
	}
	storeCommit(unsafe.Pointer(&s.chunk[s.off]), uint32(kind)|uint32(n)<<8)
	s.records++
	if kind >= kindEventDelta || kind == kindEvent {
		s.events++
	}
	size := (4 + n + 3) &^ 3
	writeThrough(s.chunk, s.index, s.off, size)
	s.off += size
	s.written += int64(size)
}

// writeMark writes a mark record with sequence number seq and time now.
func (s *shard) writeMark(kind MarkKind, label string, seq uint64, now int64) {
	label = cut(label)
	b := s.reserve(3*10 + stringLen(label))
	if b == nil {
		return
	}
	n := putUvarint(b, uint64(kind))
	n += putUvarint(b[n:], seq-s.lastSeq)
	n += putUvarint(b[n:], uint64(now-s.last))
	n += putString(b[n:], label)
	s.lastSeq, s.last = seq, now
	s.commit(kindMark, n)
}

// writeGetters writes the getter table if no shard has yet.
func (s *shard) writeGetters() {
	w.mu.Lock()
	gs := w.getters
	done := w.wroteGT || len(gs) == 0
	w.wroteGT = true
	w.mu.Unlock()
	if !done {
		s.writeGettersLocked(gs)
	}
}

// writeGettersLocked writes the getter table gs; very large tables are
// written in pieces that fit a record.
func (s *shard) writeGettersLocked(gs []Getter) {
	for len(gs) > 0 {
		size, k := uvarintLen(uint64(len(gs))), 0
		for k < len(gs) && size < chunkSize/4 {
			size += getterLen(gs[k])
			k++
		}
		// Room for the table's check after it, so that it goes in the
		// same chunk.
		b := s.reserve(size + getterCheckRoom)
		if b == nil {
			return
		}
		n := putUvarint(b, uint64(k))
		for _, g := range gs[:k] {
			n += putUvarint(b[n:], uint64(g.ID))
			n += putString(b[n:], g.Package)
			n += putString(b[n:], g.Receiver)
			n += putString(b[n:], g.Method)
			n += putString(b[n:], g.File)
			n += putUvarint(b[n:], uint64(g.Line))
			n += putString(b[n:], g.Field)
		}
		s.commit(kindGetters, n)
		s.checkGetters(b[:n])
		gs = gs[k:]
	}
}

// valueGrant is how many values a shard takes from the budget at a time.
const valueGrant = 4096

// grantValues takes valueGrant values from the budget of values that the
// shards remember (maxInterned), and returns how many it took.
func (w *writer) grantValues() int {
	// Once the budget is spent, a load answers: no shared write per value.
	if atomic.LoadInt64(&w.interned) >= maxInterned || atomic.AddInt64(&w.interned, valueGrant) > maxInterned {
		return 0
	}
	return valueGrant
}

func getterLen(g Getter) int {
	return uvarintLen(uint64(g.ID)) + stringLen(g.Package) + stringLen(g.Receiver) +
		stringLen(g.Method) + stringLen(g.File) + uvarintLen(uint64(g.Line)) + stringLen(g.Field)
}

// internString returns the shard's id of value v, returned by getter g on
// the goroutine whose outermost frame is at root (0: unknown), defining it
// first if needed. Values longer than MaxValue are cut (at a UTF-8
// boundary) and interned by what the trace keeps of them, the kept bytes
// and the full length, so a long value that repeats is also defined once.
// Shards take what they remember from one budget of maxInterned values,
// valueGrant at a time, to bound memory; once it is spent, further new
// values are defined again at each use.
func (s *shard) internString(g uint32, root uintptr, v string) uint32 {
	kept := cut(v)
	h := valueHash(kept)
	lane := s.values.lane(g, root)
	if id, ok := s.values.find(lane, h, len(v)); ok {
		return id
	}
	b := s.reserve(2*10 + stringLen(kept))
	if b == nil {
		return 0
	}
	s.nextStr++
	id := s.nextStr
	n := putUvarint(b, uint64(id))
	n += putUvarint(b[n:], uint64(len(v)))
	n += putString(b[n:], kept)
	s.commit(kindString, n)
	if s.values.table.used >= s.values.limit {
		s.values.limit += w.grantValues()
	}
	s.values.add(lane, h, len(v), id)
	return id
}
