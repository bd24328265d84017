package tracefile

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The reader's side of version 3 traces (format.go): each shard's chunks
// form a stream, decoded with its own dictionaries, and the streams'
// events and marks are merged by sequence number.

const (
	hasEvent = 1
	hasMark  = 2
)

// A stream is one shard's records.
type stream struct {
	d      *decoder // the shard's own decoder: its frames, strings and tree
	id     uint64   // the shard
	pos    int      // its place among the streams, in file order
	chunks []int    // offsets of its chunks' first records, in file order
	ci     int      // the chunk being read
	off    int      // the next record
	done   bool

	bad     map[int]string // why chunks (by index in chunks) cannot be read
	entered bool           // the current chunk's check was made
	evChunk int            // events read in the current chunk

	has int    // hasEvent, hasMark or 0: the record waiting in ev or mk
	seq uint64 // its sequence number
	at  int    // its offset, for errors
	ev  Event
	mk  Marker

	// The stream's last event record, as decoded, while the records after
	// it are its repeats (tracefmt.RecRepeat); and the repeats read and
	// not yet handed on.
	prev      Event
	prevSeq   uint64
	prevAt    int
	canRepeat bool
	repeats   uint64

	queue batchQueue // the last batch's events not yet handed on (readbatch.go)
}

// maxShards bounds the shard ids a reader accepts (writers use at most
// 2 + maxPinnedShards).
const maxShards = 1 << 10

// merge reads a version 3 trace: it finds each shard's chunks, then hands
// on the events and marks of all streams in the trace's order, numbered
// afresh from 0, with times made non-decreasing.
func (d *decoder) merge() error {
	defer d.numberStacks()
	streams, err := d.streams()
	if err != nil {
		return err
	}
	q := &mergeQueue{d: d}
	for i, s := range streams {
		s.pos = i
		if err := s.fill(); err != nil {
			if err := d.contain(s, err, false); err != nil {
				return err
			}
		}
		if s.has != 0 {
			q.s = append(q.s, s)
		}
	}
	heap.Init(q)
	for len(q.s) > 0 {
		s := q.s[0]
		if err := d.emitNext(s); err != nil {
			if err := d.contain(s, err, true); err != nil {
				return err
			}
		} else if err := s.fill(); err != nil {
			if err := d.contain(s, err, false); err != nil {
				return err
			}
		}
		if s.has != 0 {
			heap.Fix(q, 0)
		} else {
			heap.Pop(q)
		}
	}
	return nil
}

// contain ends, at a damaged record, only the stream that holds it: the
// other shards' streams are read on, and the loss is counted as the
// trailers allow (emitted: the damaged record is an event that was
// counted as read in its chunk). An error of fn's, or past the reader's
// limits, ends decoding: contain returns it.
func (d *decoder) contain(s *stream, err error, emitted bool) error {
	if d.fnErr != nil || errors.Is(err, ErrLimit) {
		return err
	}
	lost := -1
	if tr, ok := d.trailer(s.chunks[s.ci]); ok {
		lost = tr.events - s.evChunk
		if emitted {
			lost++
		}
	}
	why := err.Error()
	var se *SyntaxError
	if errors.As(err, &se) {
		why = fmt.Sprintf("offset %d: %s", se.Offset, se.Msg)
	}
	s.has = 0
	s.lose(lost, why)
	return nil
}

// A mergeQueue holds the streams that have a record waiting, as a heap
// whose top is the stream whose record comes first in the trace's order
// (of two at the same place, the one first in the file): merging k
// streams costs about log k comparisons a record rather than k, as a
// program with a shard for each of a big server's Ps writes hundreds.
type mergeQueue struct {
	d *decoder
	s []*stream
}

func (q *mergeQueue) Len() int { return len(q.s) }

func (q *mergeQueue) Less(i, j int) bool {
	a, b := q.s[i], q.s[j]
	if q.d.before(a, b) {
		return true
	}
	return !q.d.before(b, a) && a.pos < b.pos
}

func (q *mergeQueue) Swap(i, j int) { q.s[i], q.s[j] = q.s[j], q.s[i] }

func (q *mergeQueue) Push(x interface{}) { q.s = append(q.s, x.(*stream)) }

func (q *mergeQueue) Pop() interface{} {
	s := q.s[len(q.s)-1]
	q.s = q.s[:len(q.s)-1]
	return s
}

// emitNext hands on the record waiting in s.
func (d *decoder) emitNext(s *stream) error {
	kind := s.has
	s.has = 0
	if kind == hasEvent {
		if s.ev.Time < d.now {
			s.ev.Time = d.now
		}
		d.now = s.ev.Time
		s.ev.Stack = d.useStack(s.ev.Stack)
		d.off = s.at
		return d.emitEvent(s.ev)
	}
	if s.mk.Time < d.now {
		s.mk.Time = d.now
	}
	d.now = s.mk.Time
	return d.emitMark(s.mk)
}

// Stacks are numbered in the order in which the merged trace first uses
// them, as one stream would have defined them: the streams define theirs
// in their own order, decoding ahead of the merge. useStack gives an
// event's stack its number in the trace (renum, by the streams' shared
// numbering; used, the other way), and numberStacks puts Trace.Stacks in
// that order when the merge ends, then the stacks no event used.

func (d *decoder) useStack(id uint32) uint32 {
	if id == 0 {
		return 0
	}
	for int(id) >= len(d.renum) {
		d.renum = append(d.renum, 0)
	}
	if d.renum[id] == 0 {
		d.used = append(d.used, id)
		d.renum[id] = uint32(len(d.used))
	}
	return d.renum[id]
}

func (d *decoder) numberStacks() {
	stacks := make([]Stack, 0, len(d.t.Stacks))
	for _, id := range d.used {
		stacks = append(stacks, d.t.Stacks[id-1])
	}
	for i, s := range d.t.Stacks {
		if id := i + 1; id >= len(d.renum) || d.renum[id] == 0 {
			stacks = append(stacks, s)
		}
	}
	for i := range stacks {
		stacks[i].ID = uint32(i + 1) // the ID a stream gave it is its place in that stream's order
	}
	d.t.Stacks = stacks
}

// before reports whether the record waiting in s comes before the one in
// t. By the counter, the sequence numbers say. By the clock, the times
// say; at the same time, a resume comes before events, and events before
// pauses and marks (the writer reads the clock after a pause, and before
// a resume, takes effect), and else the stream found first.
func (d *decoder) before(s, t *stream) bool {
	if !d.byClock {
		return s.seq < t.seq
	}
	if ts, tt := s.time(), t.time(); ts != tt {
		return ts < tt
	}
	return s.rank() < t.rank()
}

func (s *stream) time() int64 {
	if s.has == hasEvent {
		return s.ev.Time
	}
	return s.mk.Time
}

func (s *stream) rank() int {
	switch {
	case s.has == hasEvent:
		return 1
	case s.mk.Kind == KindResume:
		return 0
	}
	return 2
}

// streams finds the chunks of each shard, in file order. A chunk that
// starts with a zero word was handed out but never written. A chunk whose
// first record is damaged is that chunk's loss only: one whose shard is
// unknown is left out of every stream, one of a known shard ends its
// stream there (stream.bad); the trace's order is the one most chunks
// state. A chunk that begins with a trace header begins another trace
// (files joined): it and the chunks after it are not read.
func (d *decoder) streams() ([]*stream, error) {
	d.stackID = make(map[string]uint32)
	heads := d.chunkHeads()
	clock := 0
	for _, h := range heads {
		if h.bad == "" {
			clock += 2*int(h.order) - 1 // +1 by the clock, -1 by the counter
		}
	}
	d.byClock = clock > 0 || clock == 0 && len(heads) > 0 && heads[0].order == 1
	d.t.ByClock = d.byClock
	d.frameID = make(map[Frame]uint32)
	byID := make(map[uint64]*stream)
	var streams []*stream
	for _, h := range heads {
		if h.bad == "" && (h.order == 1) != d.byClock {
			h.bad = fmt.Sprintf("chunk ordered by %s in a trace ordered by %s", orderName(h.order == 1), orderName(d.byClock))
		}
		s := byID[h.shard]
		if s == nil {
			s = &stream{id: h.shard, off: h.start, d: &decoder{
				name: d.name, img: d.img, cur: cursor{img: d.img}, t: d.t, chunk: d.chunk,
				version: d.version, stackID: d.stackID, frameID: d.frameID, budget: d.budget,
			}}
			s.d.out = s
			byID[h.shard] = s
			streams = append(streams, s)
		}
		if h.bad != "" && s.bad == nil {
			s.bad = map[int]string{}
		}
		if h.bad != "" {
			s.bad[len(s.chunks)] = h.bad
		}
		s.chunks = append(s.chunks, h.start)
	}
	return streams, nil
}

// A chunkHead is what the record that begins a chunk says: its shard and
// order, or (bad) why the chunk cannot be read.
type chunkHead struct {
	start        int
	shard, order uint64
	bad          string
}

// chunkHeads reads the first record of each chunk that was written, in
// file order. The chunks whose shard is unknown are counted lost here
// and left out.
func (d *decoder) chunkHeads() []chunkHead {
	var heads []chunkHead
	d.cur.peek = true // a few bytes of each chunk: not read whole
	defer func() { d.cur.peek = false }()
	for _, c := range d.img.chunks {
		start := c.index * d.chunk
		if start < d.pos {
			start = d.pos // chunk 0, after the header
		}
		if start+4 > d.img.size {
			continue
		}
		word := d.cur.word(start)
		if word == 0 {
			if !d.cur.zeroFrom(start) {
				d.t.Torn = true
			}
			continue
		}
		if start+8 <= d.img.size && string(d.cur.bytes(start, start+8)) == tracefmt.Magic {
			d.t.Losses = append(d.t.Losses, Loss{Chunk: c.index, Shard: -1, Why: "another trace begins here (files joined into one?): it and the chunks after it are not read"})
			return heads
		}
		h, unknown := d.readChunkHead(start)
		if unknown != "" {
			d.t.Losses = append(d.t.Losses, Loss{Chunk: c.index, Shard: -1, Events: d.chunkEvents(start), Why: unknown})
			continue
		}
		heads = append(heads, h)
	}
	return heads
}

// chunkEvents is the count of events that the trailer of the chunk whose
// records start at start gives, -1 if it has none.
func (d *decoder) chunkEvents(start int) int {
	if tr, ok := d.trailer(start); ok {
		return tr.events
	}
	return -1
}

// readChunkHead reads the record that begins the chunk whose records
// start at start: its shard and order, or why the chunk cannot be read
// (bad); or, where even its shard is unknown, why (unknown).
func (d *decoder) readChunkHead(start int) (h chunkHead, unknown string) {
	h.start = start
	at := "offset " + strconv.Itoa(start)
	word := d.cur.word(start)
	n := int(word >> 8)
	if byte(word) != tracefmt.RecChunk {
		return h, fmt.Sprintf("%s: chunk does not start with a chunk record (kind %d)", at, byte(word))
	}
	if start+4+n > d.chunkEnd(start) {
		return h, fmt.Sprintf("%s: chunk record of %d bytes overflows its chunk", at, n)
	}
	b := d.cur.bytes(start+4, start+4+n)
	id, k := binary.Uvarint(b)
	if k <= 0 || id >= maxShards {
		return h, at + ": bad shard id in a chunk record"
	}
	h.shard = id
	order, j := binary.Uvarint(b[k:])
	if j <= 0 || order > 1 {
		h.bad = fmt.Sprintf("offset %d: bad order in a chunk record", start+4+k)
	}
	h.order = order
	return h, ""
}

func orderName(byClock bool) string {
	if byClock {
		return "the clock"
	}
	return "the counter"
}

// fill decodes the stream's records until one is waiting to be handed on
// or the stream ends. Each repeat of an event is handed on as the event
// again, at its time and place in the order.
func (s *stream) fill() error {
	for s.has == 0 {
		if q := &s.queue; q.next < len(q.evs) {
			s.ev, s.seq, s.at, s.has = q.evs[q.next], q.seq+uint64(q.next)+1, q.at, hasEvent
			q.next++
			return nil
		}
		if q := &s.queue; q.err != nil {
			err := q.err
			q.err = nil
			return err
		}
		if s.repeats > 0 {
			s.repeats--
			s.ev, s.seq, s.at, s.has = s.prev, s.prevSeq, s.prevAt, hasEvent
			return nil
		}
		if s.done {
			s.d.cur.drop() // its chunk's data
			return nil
		}
		if err := s.step(); err != nil {
			return err
		}
	}
	return nil
}

// step decodes the stream's next record, moving to its next chunk at the
// end of one.
func (s *stream) step() error {
	d := s.d
	if !s.entered {
		s.entered = true
		if !s.enter() {
			return nil
		}
	}
	chunkEnd := (s.chunks[s.ci]/d.chunk + 1) * d.chunk
	if s.off >= chunkEnd {
		var ok bool
		if chunkEnd, ok = s.nextChunk(); !ok {
			return nil
		}
	}
	if s.off+4 > d.img.size {
		s.endOfData()
		return nil
	}
	word := d.cur.word(s.off)
	if word == 0 {
		s.zeroWord(chunkEnd)
		return nil
	}
	return s.decodeRecord(word, chunkEnd)
}

// nextChunk leaves a full chunk for the shard's next one and returns the
// next one's end; ok is false where the stream ends instead.
func (s *stream) nextChunk() (chunkEnd int, ok bool) {
	d := s.d
	s.leave()
	// A full chunk: the writer maps the shard's next one at once, so
	// a stream without one was cut short.
	if s.ci+1 == len(s.chunks) {
		d.t.Cut, s.done = true, true
		d.t.CutShards = append(d.t.CutShards, int(s.id))
		return 0, false
	}
	s.ci++
	s.off = s.chunks[s.ci]
	return (s.off/d.chunk + 1) * d.chunk, s.enter()
}

// endOfData ends a stream at the end of the file's data.
func (s *stream) endOfData() {
	d := s.d
	s.done = true // ends after a whole record: taken as whole,
	if d.t.Chunks > d.t.ChunksInFile || d.cutInWord(s.off) {
		// unless the header counts chunks that the file lacks, or
		// the file ends inside the commit word of a record
		d.t.Cut = true
		d.t.CutShards = append(d.t.CutShards, int(s.id))
	}
}

// zeroWord handles a zero commit word: a chunk whose pad was not yet
// written, a zeroed range, the end of the stream or a torn record.
func (s *stream) zeroWord(chunkEnd int) {
	d := s.d
	tr, checked := d.trailer(s.chunks[s.ci])
	if checked && tr.pad == s.off-chunkEnd+d.chunk {
		// The writer wrote the chunk's trailer but not yet its pad
		// when it died: the chunk is whole.
		s.off = chunkEnd
		return
	}
	if s.ci+1 < len(s.chunks) && !(s.ci+2 == len(s.chunks) && d.countRecords(s.chunks[s.ci+1]) == 1) {
		// A chunk the shard left ends before its pad (and the next
		// holds more than the record that begins it, which the
		// writer writes before it pads the chunk it leaves): its
		// records from here were zeroed.
		lost := -1
		if checked {
			lost = tr.events - s.evChunk
		}
		s.lose(lost, "zeroed from offset "+strconv.Itoa(s.off))
		return
	}
	// The end of the stream, or a torn record: anything non-zero
	// after it is the part of a record written before death.
	if !d.cur.zeroFrom(s.off + 4) {
		d.t.Torn = true
	}
	s.done = true
}

// decodeRecord decodes the record whose commit word is word.
func (s *stream) decodeRecord(word uint32, chunkEnd int) error {
	d := s.d
	kind, n := byte(word), int(word>>8)
	size := (4 + n + 3) &^ 3
	if s.off+4+n > d.img.size && s.off+size <= chunkEnd {
		d.t.Cut, s.done = true, true // cut inside this record
		d.t.CutShards = append(d.t.CutShards, int(s.id))
		return nil
	}
	if s.off+size > chunkEnd {
		return d.errorf(s.off, "record of %d bytes crosses a chunk boundary", n)
	}
	if err := d.record(kind, s.off, n); err != nil {
		return err
	}
	switch q := &s.queue; {
	case tracefmt.IsEvent(kind):
		s.evChunk++
		s.prev, s.prevSeq, s.prevAt, s.canRepeat = s.ev, s.seq, s.at, true
	case kind == tracefmt.RecBatch:
		s.evChunk += len(q.evs)
		s.prev, s.prevSeq, s.prevAt, s.canRepeat = q.evs[len(q.evs)-1], q.seq+uint64(len(q.evs)), q.at, q.err == nil
	case kind != tracefmt.RecRepeat:
		s.canRepeat = false
	}
	s.off += size
	return nil
}

// repeat decodes a tracefmt.RecRepeat record (version 4): the stream's
// last event, count more times; the record before it is that event or
// another repeat of it.
func (d *decoder) repeat() error {
	at := d.pos
	if d.out == nil || d.version < 4 {
		return d.errorf(at, "repeat record in a version %d trace", d.version)
	}
	if !d.out.canRepeat {
		return d.errorf(at, "repeat record after a record that is not an event")
	}
	if d.end-d.pos != tracefmt.RepeatSize {
		return d.errorf(at, "repeat record of %d bytes (want %d)", d.end-d.pos, tracefmt.RepeatSize)
	}
	n := binary.LittleEndian.Uint32(d.payload[d.pos-d.base:])
	if n&tracefmt.RepeatFlag == 0 {
		return d.errorf(at, "repeat count without its flag")
	}
	if n &^= tracefmt.RepeatFlag; n > tracefmt.MaxRepeat {
		return d.errorf(at, "repeat count %d over %d", n, tracefmt.MaxRepeat)
	}
	d.out.repeats += uint64(n)
	d.pos = d.end
	return nil
}

// chunkRecord decodes a tracefmt.RecChunk record: the first of every chunk of a
// version 3 trace, naming the shard the chunk belongs to.
func (d *decoder) chunkRecord() error {
	at := d.pos
	if d.out == nil {
		return d.errorf(at, "chunk record in a version %d trace", d.version)
	}
	id, err := d.uvarint("shard id")
	if err != nil {
		return err
	}
	if id != d.out.id {
		return d.errorf(at, "chunk record of shard %d in the stream of shard %d", id, d.out.id)
	}
	_, err = d.uvarint("chunk order") // checked by streams
	return err
}

// seqDelta reads the sequence delta of a version 3 event or mark.
func (d *decoder) seqDelta() error {
	if d.version < 3 {
		return nil
	}
	at, delta := d.pos, d.kindDelta
	if delta == 0 {
		var err error
		if delta, err = d.uvarint("sequence delta"); err != nil {
			return err
		}
	}
	if delta == 0 || d.lastSeq+delta < d.lastSeq {
		return d.errorf(at, "sequence delta %d out of range", delta)
	}
	d.lastSeq += delta
	return nil
}

// stackIDOf returns the id in Trace.Stacks of a stack with the frames of
// s, adding s if no shard defined such a stack yet: the same stack is one
// Stack, whichever shards recorded it.
func (d *decoder) stackIDOf(s Stack) uint32 {
	if d.stackID == nil {
		d.t.Stacks = append(d.t.Stacks, s)
		return uint32(len(d.t.Stacks))
	}
	// The key is the frames' numbers, 4 bytes a frame: spelled out, the
	// keys of a -reads trace's stacks took gigabytes.
	key := make([]byte, 0, 1+4*len(s.Frames))
	if s.Truncated {
		key = append(key, '!')
	}
	for _, f := range s.Frames {
		id, ok := d.frameID[f]
		if !ok {
			id = uint32(len(d.frameID) + 1)
			d.frameID[f] = id
		}
		key = binary.LittleEndian.AppendUint32(key, id)
	}
	if id, ok := d.stackID[string(key)]; ok {
		return id
	}
	d.t.Stacks = append(d.t.Stacks, s)
	id := uint32(len(d.t.Stacks))
	d.stackID[string(key)] = id
	return id
}

// A Loss is what a version 3 trace lost in one chunk, as the chunk's check
// (tracefmt's trailer) or the chunks of its shard tell: the events of the
// chunk that were not read, and those of the shard's later chunks, which
// cannot be read after it (their records refer to what was lost).
type Loss struct {
	Chunk  int    // the chunk's index in the file
	Shard  int    // the shard it belongs to
	Events int    // events of the chunk lost, -1 if unknown
	Later  int    // events of the shard's later chunks, -1 if unknown
	Why    string // what happened to the chunk
}

func (l Loss) String() string {
	if l.Events == 0 && l.Later == 0 {
		return "chunk " + strconv.Itoa(l.Chunk) + ": " + l.Why
	}
	s := count(l.Events) + " events of chunk " + strconv.Itoa(l.Chunk) + " lost (" + l.Why + ")"
	if l.Later != 0 {
		s += " and " + count(l.Later) + " of shard " + strconv.Itoa(l.Shard) + "'s later chunks"
	}
	return s
}

func count(n int) string {
	if n < 0 {
		return "an unknown number of"
	}
	return strconv.Itoa(n)
}

// A trailer is a chunk's check (tracefmt's trailer).
type trailer struct {
	pad, records, events int
	sum                  uint32
}

// trailer reads the trailer of the chunk whose records start at start.
func (d *decoder) trailer(start int) (trailer, bool) {
	base := start / d.chunk * d.chunk
	end := base + d.chunk
	if end > d.img.size || d.version < 3 {
		return trailer{}, false
	}
	b := d.cur.bytes(end-tracefmt.TrailerSize, end)
	le := binary.LittleEndian
	if le.Uint32(b[16:]) != tracefmt.TrailerTag {
		return trailer{}, false
	}
	t := trailer{pad: int(le.Uint32(b[0:])), records: int(le.Uint32(b[4:])), events: int(le.Uint32(b[8:])), sum: le.Uint32(b[12:])}
	if t.pad < start-base || t.pad > d.chunk-tracefmt.TrailerSize-4 || t.events > t.records {
		return trailer{}, false
	}
	return t, true
}

// enter checks the chunk the stream enters: if its trailer's checksum
// does not hold, the chunk is lost, with the rest of the stream, and
// enter returns false.
func (s *stream) enter() bool {
	d := s.d
	s.evChunk = 0
	start := s.chunks[s.ci]
	if why, bad := s.bad[s.ci]; bad {
		s.lose(d.chunkEvents(start), why)
		return false
	}
	tr, ok := d.trailer(start)
	if !ok {
		return true
	}
	base := start / d.chunk * d.chunk
	if tracefmt.Checksum(d.cur.bytes(start, base+tr.pad)) != tr.sum {
		s.lose(tr.events, "its checksum does not match: bytes changed or zeroed")
		return false
	}
	return true
}

// leave checks, at the end of a chunk, that its events were all read.
func (s *stream) leave() {
	if tr, ok := s.d.trailer(s.chunks[s.ci]); ok && tr.events != s.evChunk {
		s.d.t.Losses = append(s.d.t.Losses, Loss{Chunk: s.chunks[s.ci] / s.d.chunk, Shard: int(s.id), Events: tr.events - s.evChunk, Why: "fewer events than its check counts"})
	}
}

// lose ends the stream in its current chunk, which lost events (-1:
// unknown), and counts the events of its later chunks.
func (s *stream) lose(events int, why string) {
	d := s.d
	d.salvageGetters(s.chunks[s.ci])
	later := 0
	for j := s.ci + 1; j < len(s.chunks) && later >= 0; j++ {
		switch tr, ok := d.trailer(s.chunks[j]); {
		case ok:
			later += tr.events
		case j == len(s.chunks)-1:
			later += d.countEvents(s.chunks[j])
		default:
			later = -1
		}
	}
	d.t.Losses = append(d.t.Losses, Loss{Chunk: s.chunks[s.ci] / d.chunk, Shard: int(s.id), Events: events, Later: later, Why: why})
	s.done = true
}

// countEvents counts the event records of the chunk whose records start
// at start, up to its first zero commit word; countRecords, all its
// records.
func (d *decoder) countEvents(start int) int {
	_, events := d.countChunk(start)
	return events
}

func (d *decoder) countRecords(start int) int {
	records, _ := d.countChunk(start)
	return records
}

func (d *decoder) countChunk(start int) (records, events int) {
	end := (start/d.chunk + 1) * d.chunk
	for off := start; off+4 <= end && off+4 <= d.img.size; {
		word := d.cur.word(off)
		if word == 0 {
			break
		}
		records++
		n := int(word >> 8)
		switch kind := byte(word); {
		case tracefmt.IsEvent(kind):
			events++
		case kind == tracefmt.RecBatch && off+4+n <= d.img.size && off+4+n <= end:
			events += batchEntries(d.cur.bytes(off+4, off+4+n))
		}
		off += (4 + int(word>>8) + 3) &^ 3
	}
	return records, events
}

// salvageGetters reads the getter tables of the chunk whose records start
// at start, which lost records, where their own checks hold
// (tracefmt.GettersCheckTag): the events of every shard need the table,
// and a changed byte among the records around it must not lose it. The
// chunk's records are followed by their commit words as far as they
// lead.
func (d *decoder) salvageGetters(start int) {
	end := d.chunkEnd(start)
	for off := start; off+4 <= end; {
		word := d.cur.word(off)
		n := int(word >> 8)
		size := (4 + n + 3) &^ 3
		if word == 0 || off+size > end {
			return
		}
		if byte(word) == tracefmt.RecGetters && d.gettersChecked(off, n, off+size) {
			d.record(tracefmt.RecGetters, off, n)
		}
		off += size
	}
}

// gettersChecked reports whether the getter table record at off, whose
// payload is n bytes, is followed, at next, by its check, and the check
// holds.
func (d *decoder) gettersChecked(off, n, next int) bool {
	const size = 4 + tracefmt.GettersCheckLen
	if next+size > d.chunkEnd(off) || d.cur.word(next) != tracefmt.RecPad|tracefmt.GettersCheckLen<<8 {
		return false
	}
	c := d.cur.bytes(next+4, next+size)
	le := binary.LittleEndian
	return le.Uint32(c) == tracefmt.GettersCheckTag && le.Uint32(c[4:]) == tracefmt.Checksum(d.cur.bytes(off+4, off+4+n))
}
