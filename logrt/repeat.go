package logrt

import (
	"os"
	"sync/atomic"
	"unsafe"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Known contexts and repeats. The common event of a -reads trace is the
// same site read again from the same live frame, in a loop: the same
// getter and the same stack as an event a little before it. A shard keeps
// the last contexts it recorded (ctxCache: the getter, the stack's node in
// the call-site tree, and the frames its walk took, with their addresses,
// fpCallers' proof), by the site that called the recorder. When a call
// finds, without walking them, that its frames are those of a context
// (fpFind: the same words at the same addresses, the walk's own reads),
// its event is written with that node, with no walk and no lookup in the
// tree. If it also repeats the shard's last event (the same context and
// value, and nothing recorded anywhere in between that would take a place
// in the order), it is counted in a repeat record (format.go, RecRepeat)
// instead: the first repeat writes the record, the next ones raise its
// count in place. Counts stay exact, every event has its own stack, and
// the stream keeps the order of its distinct events. Any other record of
// the shard, a new chunk, a mark, pause or resume (or, ordered by the
// counter, any event of another shard) ends a run of repeats.

// ctxOn says whether shards keep known contexts and count repeats: where
// stacks are walked by frame pointers and fpFind was calibrated, chunks
// are mapped (a count raised in place is then in the file at once), and
// unless SUNCAT_REPEAT=0.
var ctxOn = useFP && fpSameOK && mappedChunks && os.Getenv("SUNCAT_REPEAT") != "0"

const (
	// ctxWays is the number of contexts a shard keeps, by site: the hot
	// loop of a parser reads hundreds of fields at as many sites (gojq's
	// YAML input through gopkg.in/yaml.v3, BENCH.md).
	ctxWays = 256

	// maxCtxValue is the longest value a context remembers as its last:
	// an event with a longer value is looked up in the values, and is
	// never repeated.
	maxCtxValue = 64

	// maxRepeat is the largest count of one repeat record; a longer run
	// goes on in the next one (a new record every 65,536 repeats).
	maxRepeat = tracefmt.MaxRepeat
)

// A ctxCache holds a shard's known contexts.
type ctxCache struct {
	e [ctxWays]ctxEntry
}

// A ctxEntry is one known context and the last value recorded in it.
type ctxEntry struct {
	n    int    // frames of its walk, in pcs and fps; 0: empty
	id   uint32 // the getter
	leaf uint32 // the stack's node in the call-site tree
	gen  uint32 // the tree's generation, whose node it is
	root uintptr
	walk *ctxWalk // made when the entry is first walked into

	// A site whose stack keeps changing (recursion: a parser's) is not
	// looked up for a while after each time its stack was not the one
	// kept: fpFind then costs as much as a walk, and the walk follows.
	backoff, skip uint8

	vid  uint32 // the last value's id, 0 if it is not kept
	kept keptValue
}

// missed notes that the entry's stack was not the call's: the next
// 2^k-1 calls of its site walk without looking, after k misses in a row
// (up to 6).
func (e *ctxEntry) missed() {
	if e.backoff < 6 {
		e.backoff++
	}
	e.skip = 1<<e.backoff - 1
}

// A ctxWalk is the walk of a known context: its return addresses, and
// the addresses of its frames and the word that ended it (fpCallers).
type ctxWalk struct {
	pcs [1 + maxFrames]uintptr
	fps [2 + maxFrames]uintptr
}

// ctxIndex is the entry of the context of getter id whose recorder was
// called from return address site (pcs[2] of the walk: the instruction
// after the call of the getter, or of the read's recorder) in the frame
// at address frame (fps[3]): the same site reached at another depth (a
// parser's recursion) has a frame elsewhere, and an entry of its own.
func ctxIndex(site, frame uintptr, id uint32) int {
	h := (uint64(site) ^ uint64(id)<<32) * 0x9e3779b97f4a7c15
	h = (h ^ uint64(frame)>>3) * 0xc2b2ae3d27d4eb4f
	return int(h>>56) & (ctxWays - 1)
}

// A keptValue is a value kept to be compared with the next ones: a
// string's bytes, if it is short enough, or a literal (recValue).
type keptValue struct {
	vlen int // the string's length; -1: not kept
	lit  uint8
	n    uint64
	val  [maxCtxValue]byte
}

// keep keeps v, and reports whether it could.
func (k *keptValue) keep(v recValue) bool {
	k.lit, k.n, k.vlen = v.lit, v.n, -1
	if v.lit != litString {
		k.vlen = 0
	} else if len(v.s) <= maxCtxValue {
		k.vlen = copy(k.val[:], v.s)
	}
	return k.vlen >= 0
}

// same reports whether v is the value kept.
func (k *keptValue) same(v recValue) bool {
	if v.lit != litString {
		return k.lit == v.lit && k.n == v.n && k.vlen >= 0
	}
	return k.lit == litString && k.vlen == len(v.s) && string(k.val[:k.vlen]) == v.s
}

// A repeatRun is the shard's last event, as a run of repeats needs it:
// what it was (the getter, the stack's node, the goroutine and the
// value) and when it took its place.
type repeatRun struct {
	on    bool   // whether there is an event to repeat
	id    uint32 // its getter
	leaf  uint32 // its stack's node
	gen   uint32 // the tree's generation, whose node it is
	root  uintptr
	vid   uint32 // the value's string id, 0 if it was written as a literal
	kept  keptValue
	word  uint64 // writer.seq when it took its place (writer.order)
	marks uint64 // writer.marks before it did
	at    int    // offset in the shard's chunk of the count being raised; 0: no record yet
	count uint32 // that count
}

// forget ends the run: the shard wrote another record.
func (r *repeatRun) forget() { r.on, r.at = false, 0 }

// is reports whether an event of getter id on node leaf, of the
// goroutine whose first frame is at root, with value v, would be the
// run's event again.
func (r *repeatRun) is(id, leaf, gen uint32, root uintptr, v recValue) bool {
	return r.on && r.id == id && r.leaf == leaf && r.gen == gen && r.root == root && r.kept.same(v)
}

// runsOn reports whether the event just written could be followed by
// a repeat record (writeKnown): if it was not written into a batch, or
// ended a batch's longest run. Otherwise the next event, repeat or not,
// goes into the open batch, and the run need not be started: a run that
// is not started is forgotten (entry), so none is repeated wrongly, and
// a batch ended meanwhile only costs that repeat a batch of its own.
func (s *shard) runsOn() bool {
	return s.bat.at == 0 || s.bat.run >= maxBatchRun
}

// start makes the event just written, of getter id on node leaf with
// value v (vid), the run's event, if its value is short enough to be
// compared and its goroutine is known (root); a run that it goes on
// (a repeat) goes on.
func (s *shard) start(id, leaf uint32, root uintptr, v recValue, vid uint32) {
	r := &s.rep
	if root == 0 || r.is(id, leaf, s.tree.gen, root, v) {
		return
	}
	if r.on = r.kept.keep(v); !r.on {
		return
	}
	r.id, r.leaf, r.gen, r.root, r.vid = id, leaf, s.tree.gen, root, vid
	r.word, r.marks = s.word, s.marks
	r.at, r.count = 0, 0
}

// remember notes the value of the last event of known context i.
func (s *shard) remember(i int, v recValue, vid uint32) {
	e := &s.ctx.e[i]
	e.vid = 0
	if e.kept.keep(v) {
		e.vid = vid
	}
}

// arm makes the context of the event just committed, of getter id and
// value v, whose walk took s.walked frames into the entry of its site
// (s.slot), a known one, and the event the one a run of repeats counts.
func (s *shard) arm(id uint32, v recValue, vid uint32, root uintptr) {
	n := s.walked
	if n < 3 || n == len(s.pcs) || s.tree.lastN == 0 {
		return // a stack cut at maxFrames is not kept (own)
	}
	leaf := s.tree.path[s.tree.lastN-1]
	if s.runsOn() {
		s.start(id, leaf, root, v, vid)
	}
	if s.slot < 0 {
		return
	}
	e := &s.ctx.e[s.slot]
	e.n, e.id, e.root = n, id, s.root
	e.leaf, e.gen = leaf, s.tree.gen
	s.remember(s.slot, v, vid)
}

// known records a call of getter id returning v in known context i, and
// reports whether it did (writeKnown).
func (s *shard) known(i int, id uint32, v recValue) int {
	e := &s.ctx.e[i]
	if e.gen != s.tree.gen {
		return undone
	}
	vid := uint32(0)
	if e.kept.same(v) {
		vid = e.vid
	}
	r, vid, done := s.writeKnown(id, e.leaf, e.root, v, vid)
	if done {
		s.remember(i, v, vid)
	}
	return r
}

// writeKnown records a call of getter id returning v, on the goroutine
// whose first frame is at root, whose stack is node leaf of the shard's
// tree (of its current generation): as a repeat of the last event, or as
// an event on that node, in a batch where batches are written (batch.go:
// a short run goes on in the open batch, a byte an event, rather than in
// a repeat record, which would end it). vid is the value's string id if
// the caller knows it, else 0. It reports what it did, the value's id
// (0 if it was written as a literal, or counted as a repeat) and whether
// it wrote or counted the event. It leaves undone what it cannot do so
// (a label is to be written first, or no room), and the record goes on
// as a new one.
func (s *shard) writeKnown(id, leaf uint32, root uintptr, v recValue, vid uint32) (int, uint32, bool) {
	pending := atomic.LoadInt32(&w.hasPending) != 0
	inBatch := s.bat.at != 0 && s.bat.run < maxBatchRun
	if !pending && !inBatch && s.rep.is(id, leaf, s.tree.gen, root, v) &&
		atomic.LoadUint64(&w.seq) == s.rep.word && atomic.LoadUint64(&w.marks) == s.rep.marks &&
		s.owns(root) {
		if s.repeat() {
			return recorded, 0, true
		}
		return undone, 0, false
	}
	if pending {
		return undone, 0, false // the label is written by the whole record
	}
	if vid == 0 && s.rep.is(id, leaf, s.tree.gen, root, v) {
		vid = s.rep.vid
	}
	r, vid, done := s.writeOn(id, leaf, root, v, vid)
	if done && s.runsOn() {
		s.start(id, leaf, root, v, vid)
	}
	return r, vid, done
}

// A goroutine that records in one shard, then in another, then in the
// first again (it moved between Ps) must not have its last event there
// repeated: the repeat would come before what it recorded in between. So
// each goroutine's shard is kept (writer.owners: a word of the address of
// its first frame, which the walk ends at, and the shard's id, in a slot
// by that address), set by every event before it reads the clock; an
// event may be a repeat only if its goroutine's shard is that shard.
// Another goroutine in the same slot takes it over, which only makes that
// less often true. A stack cut at maxFrames does not reach the first
// frame, so an event on one ends the runs of all shards (writer.marks),
// as a mark does.
const ownerSlots = 1024

func ownerSlot(root uintptr) *uint64 {
	return &w.owners[uint64(root)*0x9e3779b97f4a7c15>>54]
}

// owns reports whether the goroutine whose first frame is at root
// recorded its last event in shard s.
func (s *shard) owns(root uintptr) bool {
	return root != 0 && atomic.LoadUint64(ownerSlot(root)) == uint64(root)<<10|uint64(s.id)
}

// own makes shard s the shard of the goroutine whose first frame is at
// root (0: unknown, as when its stack was cut), before an event of it
// reads the clock.
func (s *shard) own(root uintptr) {
	if root == 0 {
		atomic.AddUint64(&w.marks, 1)
		return
	}
	p, word := ownerSlot(root), uint64(root)<<10|uint64(s.id)
	if atomic.LoadUint64(p) != word {
		atomic.StoreUint64(p, word)
	}
}

// repeat counts one more repeat of the shard's last event, and reports
// whether it did: not if the record that counts them had to be written in
// a new chunk (which forgets the event), or found no room.
func (s *shard) repeat() bool {
	r := &s.rep
	if r.at != 0 && r.count < maxRepeat {
		r.count++
		storeCommit(unsafe.Pointer(&s.chunk[r.at]), r.count|tracefmt.RepeatFlag)
		return true
	}
	b := s.reserve(tracefmt.RepeatSize)
	if b == nil || !r.on {
		return false
	}
	at := s.off + 4
	le32(b, 1|tracefmt.RepeatFlag)
	s.commit(kindRepeat, tracefmt.RepeatSize)
	r.at, r.count = at, 1
	return true
}
