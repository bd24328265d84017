package logrt

import (
	"os"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Batches (format.go, RecBatch). An event in a known context (its node
// already in the call-site tree, repeat.go) joins the shard's open batch
// when it may (joins): a few bytes, and no reading of the clock. Else it
// opens a new batch, which reads the clock once for the events that
// join it after. An entry names its node as a small delta from the
// previous event's, and leaves out the getter and the value where they
// are those of the previous event on the same node, which the shard
// remembers (nodeMemo); an integer value is written as a literal, never
// formatted nor interned (recValue).

// batchOn says whether events of known contexts are written in batches:
// with known contexts, in traces ordered by the clock, unless
// SUNCAT_BATCH=0.
var batchOn = ctxOn && byClock && os.Getenv("SUNCAT_BATCH") != "0"

const (
	batchCap   = tracefmt.BatchCap
	maxBatch   = tracefmt.MaxBatch
	maxEntry   = 3 * 10 // head, getter id and value, each a varint
	batchWords = 4      // the used word at the payload's start

	// maxBatchRun is the longest run of one event repeated that a batch
	// holds as entries, a byte each; a longer run goes on in a repeat
	// record, which counts it in place but ends the batch.
	maxBatchRun = 16

	// nodeMemos is the number of nodes whose last event a shard
	// remembers, by node id.
	nodeMemos = 1024
)

// A batch is the shard's open batch.
type batch struct {
	at      int // offset in the chunk of its commit word; 0: none open
	used    int // payload bytes after the used word
	entries int
	run     int // entries at its end that repeat the one before them
	root    uintptr
	word    uint64 // writer.seq when it read the clock
	marks   uint64 // writer.marks before it did
}

// A nodeMemo is the last event of the shard's stream on a node, as a
// batch entry leaves out what it shares with it: its getter and value
// (a string id, or a literal).
type nodeMemo struct {
	leaf, id uint32
	vid      uint32 // the value's string id; 0: a literal
	lit      uint8
	n        uint64
}

// A recValue is what a getter or a read returned: a string, or an integer
// that a literal stands for (lit, 1 + a literal format of tracefmt), so
// that a read of an integer field is not formatted and interned unless
// it is written as a string.
type recValue struct {
	s     string
	n     uint64
	lit   uint8
	named bool // s is a type's name, a literal of the generated code (ReadAs)
}

const (
	litString = 0
	litInt    = 1 + tracefmt.LitInt
	litUint   = 1 + tracefmt.LitUint
	litLen    = 1 + tracefmt.LitLen
	litBool   = 1 + tracefmt.LitBool
)

// appendTo appends the value as a string, as the reader spells it.
func (v recValue) appendTo(b []byte) []byte {
	switch v.lit {
	case litInt:
		return strconv.AppendInt(b, int64(v.n), 10)
	case litUint:
		return strconv.AppendUint(b, v.n, 10)
	case litLen:
		return strconv.AppendUint(append(b, "len "...), v.n, 10)
	case litBool:
		if v.n != 0 {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	}
	return append(b, v.s...)
}

// code returns the literal of a batch entry that stands for v, and
// whether there is one: not for strings, nor for integers too large.
func (v recValue) code() (uint64, bool) {
	x := v.n
	if v.lit == litInt {
		x = v.n<<1 ^ uint64(int64(v.n)>>63) // zigzag
	}
	if v.lit == litString || x >= 1<<62 {
		return 0, false
	}
	return x<<2 | uint64(v.lit-1), true
}

// valueID returns the shard's string id of v, read by getter id on the
// goroutine whose first frame is at root, defining it if needed (0: no
// room).
func (s *shard) valueID(id uint32, root uintptr, v recValue) uint32 {
	if v.lit == litString && v.named {
		return s.seenString(id, root, v.s)
	}
	if v.lit == litString {
		return s.internString(id, root, v.s)
	}
	var b [32]byte
	return s.internString(id, root, string(v.appendTo(b[:0])))
}

// writeOn writes an event of getter id on node leaf, an existing node
// of the shard's tree, with value v (vid its string id, if known, else
// 0), for the goroutine whose first frame is at root: in the shard's
// open batch if it may join it, else in a new batch, else (no batches)
// as an event record. It reports what it came to, the value's string id
// (0 if it was written as a literal) and whether it was written.
func (s *shard) writeOn(id, leaf uint32, root uintptr, v recValue, vid uint32) (int, uint32, bool) {
	if !batchOn {
		return s.writeRecord(id, leaf, root, v, vid)
	}
	if _, ok := v.code(); ok {
		vid = 0 // a literal
	} else if vid == 0 {
		// Defined first if new, which ends the open batch.
		if vid = s.valueID(id, root, v); vid == 0 {
			return s.outcome(), 0, false
		}
	}
	if s.joins(root) {
		s.entry(id, leaf, v, vid)
		return recorded, vid, true
	}
	r, done := s.openBatch(id, leaf, root, v, vid)
	return r, vid, done
}

// writeRecord writes an event of getter id on node leaf with value v
// (vid its string id, if known, else 0) as an event record of its own,
// and reports as writeOn does.
func (s *shard) writeRecord(id, leaf uint32, root uintptr, v recValue, vid uint32) (int, uint32, bool) {
	if atomic.LoadInt32(&w.hasPending) != 0 {
		return undone, 0, false // the label is written by the whole record
	}
	if vid == 0 {
		if vid = s.valueID(id, root, v); vid == 0 {
			return s.outcome(), 0, false
		}
	}
	st := &s.ref
	st.pcIDs, st.leaf = st.pcIDs[:0], leaf
	r, done := w.writeEvent(s, id, st, vid, root)
	return r, vid, done
}

// joins reports whether an event of the goroutine whose first frame is
// at root may join the shard's open batch (format.go, "Batches").
func (s *shard) joins(root uintptr) bool {
	b := &s.bat
	return b.at != 0 && b.root == root && b.entries < maxBatch && b.used+maxEntry <= batchCap-batchWords &&
		atomic.LoadUint64(&w.marks) == b.marks && atomic.LoadUint64(&w.seq) == b.word && s.owns(root)
}

// openBatch ends the shard's open batch, if any, and opens a new one
// that holds the event; it reports what it came to and whether the
// event was written (not if recording was paused meanwhile).
func (s *shard) openBatch(id, leaf uint32, root uintptr, v recValue, vid uint32) (int, bool) {
	p := s.reserve(batchCap)
	if p == nil {
		return s.outcome(), false
	}
	if s.memo == nil {
		s.memo = new([nodeMemos]nodeMemo)
	}
	s.own(root)
	_, now, ok := w.order(s)
	if !ok {
		return recorded, false // paused between the check in String and now
	}
	n := putUvarint(p[batchWords:], uint64(now-s.last))
	s.last = now
	s.opened++
	s.bat = batch{at: s.off, used: n, root: root, word: s.word, marks: s.marks}
	s.entry(id, leaf, v, vid)
	storeCommit(unsafe.Pointer(&s.chunk[s.off]), uint32(kindBatch)|uint32(batchCap)<<8)
	s.records++
	return recorded, true
}

// entry appends an event to the open batch: getter id on node leaf,
// with value v, written as its string id vid, or as a literal if vid is
// 0. The entry's bytes are written first, then the batch's used word.
func (s *shard) entry(id, leaf uint32, v recValue, vid uint32) {
	b := &s.bat
	p := s.chunk[s.off+4+batchWords+b.used:]
	m := &s.memo[leaf&(nodeMemos-1)]
	head := uint64(0)
	if m.leaf != leaf || m.id != id {
		head |= 1 << 2
	}
	var x uint64
	switch {
	case m.leaf == leaf && m.vid == vid && (vid != 0 || m.lit == v.lit && m.n == v.n):
		// the same value: v = 0
	case vid != 0:
		head, x = head|1, uint64(vid)
	case m.leaf == leaf && m.vid == 0 && m.lit == v.lit && v.lit != litBool && v.n == m.n+1:
		head |= 3 // the previous integer on the node, plus one: a loop's index
	default:
		head |= 2
		x, _ = v.code()
	}
	d := int64(leaf) - int64(s.lastNode)
	head |= uint64(d<<1^d>>63) << 3
	n := putUvarint(p, head)
	if head&(1<<2) != 0 {
		n += putUvarint(p[n:], uint64(id))
	}
	if v := head & 3; v == 1 || v == 2 {
		n += putUvarint(p[n:], x)
	}
	if head == 0 {
		b.run++
	} else {
		b.run = 0
	}
	b.used += n
	b.entries++
	storeCommit(unsafe.Pointer(&s.chunk[s.off+4]), uint32(b.used))
	// Field by field: a composite literal is built on the stack and
	// copied, and the copy's wide loads of the narrow stores just made
	// stalled (a tenth of Hugo's -reads run was this line).
	m.leaf, m.id, m.vid = leaf, id, vid
	if vid != 0 {
		m.lit, m.n = litString, 0
	} else {
		m.lit, m.n = v.lit, v.n
	}
	s.lastNode = leaf
	s.lastSeq++
	s.events++
	s.rep.forget()
}

// endBatch ends the shard's open batch, if any: its commit word is
// lowered to the bytes it used, and the shard's next record goes after
// them.
func (s *shard) endBatch() {
	b := &s.bat
	if b.at == 0 {
		return
	}
	n := batchWords + b.used
	storeCommit(unsafe.Pointer(&s.chunk[b.at]), uint32(kindBatch)|uint32(n)<<8)
	size := (4 + n + 3) &^ 3
	s.off = b.at + size
	s.written += int64(size)
	b.at = 0
}

// noteEvent remembers the event record just written on node leaf, of
// getter id and value vid, for the batch entries after it.
func (s *shard) noteEvent(leaf, id, vid uint32) {
	if s.memo != nil {
		s.memo[leaf&(nodeMemos-1)] = nodeMemo{leaf: leaf, id: id, vid: vid}
	}
	s.lastNode = leaf
}
