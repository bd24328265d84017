package logrt

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Recording states, read without a lock on the hot path.
const (
	stateNew       = 0 // no trace file yet: opened by the first record
	stateRecording = 1
	statePaused    = 2
	stateOff       = 3 // failed or disabled; nothing more is written
)

var state int32

// useFP selects frame-pointer unwinding (fp.go): on amd64 and arm64,
// unless SUNCAT_FP=0 or the unwinder fails its calibration; about ten
// times cheaper than runtime.Callers.
var useFP = fpSupported && os.Getenv("SUNCAT_FP") != "0" && calibrate()

// w is the process's one trace writer. Records are written by shards
// (shard.go), each with its own chunk and dictionaries, so that
// goroutines recording at the same time do not wait for each other; w.mu
// guards only what all shards share and what changes rarely: opening the
// file, handing out chunks, the getter table and a pending label.
var w writer

type writer struct {
	// The 64-bit atomic words come first: on 386, arm and 32-bit mips
	// only the first word of a variable is sure to be 64-bit aligned (a
	// build fails below if one is not). What every event writes is kept
	// off the cache lines of what every event reads (shards, hasPending),
	// so that cores recording at once do not take those lines from each
	// other.
	seq uint64 // the last sequence number handed out (atomic)
	// marks counts the marks, pauses and resumes begun (atomic): a run
	// of repeats (repeat.go) ends at any of them.
	marks uint64
	_     [48]byte

	// Budgets shared by all shards' dictionaries (atomic), so that the
	// writer's memory stays bounded however many shards there are.
	interned int64 // values granted to the shards' dictionaries
	nodes    int64 // call-site tree nodes kept
	_        [48]byte

	mu        sync.Mutex
	f         *os.File
	path      string
	start     time.Time
	startNano int64 // the runtime's clock (nanotime) at start
	getters   []Getter
	wroteGT   bool
	opening   bool     // open is writing the getter table, holding mu (lockChunks)
	nextChunk int      // the index of the next chunk to hand out
	shards    []*shard // fixed when the trace is opened: the locked, then the Ps'
	nP        int      // the Ps' shards, written pinned (pinned.go)
	head      []byte   // the header, mapped, or nil (countChunk)
	counted   int      // the chunk count written, where head is nil

	// The mapper's work (pinned.go): the chunks the Ps' shards left, to
	// unmap (atomic, a *mappedChunk list), and those mapped for them that
	// are not yet unmapped (under mu, for Flush).
	mapping int32      // atomic: 1 while a mapper runs
	ticking int32      // atomic: 1 while the tick's timer is armed (tick.go)
	capped  int32      // atomic: 1 once a P's shard found no chunk within the size cap
	mapMu   sync.Mutex // held while spares are mapped
	retired unsafe.Pointer
	live    map[*mappedChunk]struct{}

	pending    string // a Label to record before the next event
	hasPending int32  // atomic: 1 while pending is to be recorded

	// The shard each goroutine recorded its last event in, by the
	// address of its first frame (atomic; repeat.go, owner).
	owners [ownerSlots]uint64
}

var _ = [1]int{}[unsafe.Offsetof(w.seq)%8+unsafe.Offsetof(w.marks)%8+unsafe.Offsetof(w.interned)%8+unsafe.Offsetof(w.nodes)%8]

// SetGetters records the getter table of the instrumented program. It is
// called once, from generated code, before main runs.
func SetGetters(gs []Getter) {
	var s *shard
	if w.recording() {
		s = w.lockShard()
		defer s.release()
	}
	w.mu.Lock()
	w.getters = append(w.getters[:0], gs...)
	w.wroteGT = false
	w.mu.Unlock()
	if s != nil {
		s.writeGetters()
	}
}

// Start opens the trace, and the control socket (see control.go), now
// rather than at the first getter call, so that a mark sent before it
// (suncat mark, then the request) is in the trace. Generated code calls it
// before main runs in programs; test binaries open theirs at first use.
func Start() { w.ready() }

// String records one call of getter id returning v, with the caller's
// stack (the getter itself is the first frame), and returns v.
//
// It must not be inlined: the walk of the stack, one call below it, leaves
// out its frame.
//
//go:noinline
func String(id uint32, v string) string {
	if recordable() {
		// Pinned, in the shard of the goroutine's P, if it has one and
		// that can be done without blocking (pinned.go), else in a locked
		// shard. A P's shard short of a spare chunk waits for one (the
		// mapper is behind, or the shard is new). Every record is made
		// from here, so that its stack starts at the same depth.
		r := undone
		if w.nP > 0 {
			if r = w.record(id, recValue{s: v}, true, false, nil, 0); r == needSpare && w.refillNow() {
				r = w.record(id, recValue{s: v}, true, false, nil, 0)
			}
		}
		if r != recorded {
			w.record(id, recValue{s: v}, false, false, nil, 0)
		}
	}
	if delays != nil && delayWanted(id, v) {
		delay(id)
	}
	return v
}

// readValue is String for the reads of fields outside functions (events.go;
// those inside read through a frame cache, readValueF): their events
// are recorded in known contexts where they can be, and repeats counted
// (repeat.go), for a loop reads the same fields from the same frames
// again and again. Getter calls keep to String, where every event walks
// its stack. It must not be inlined, as String.
//
//go:noinline
func readValue(id uint32, v recValue) {
	if recordable() {
		r := undone
		if w.nP > 0 {
			if r = w.record(id, v, true, true, nil, 0); r == needSpare && w.refillNow() {
				r = w.record(id, v, true, true, nil, 0)
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

// Mark records a labelled sub-trace boundary.
func Mark(label string) { w.mark(KindMark, label) }

// Label names what the program does from now on (in 'suncat test', the
// test that runs): a mark with this label is recorded right before the
// next event. Labels set one after another with no event between leave
// only the last, so work that calls no getter starts no sub-trace; Mark,
// Pause and Resume drop a pending label.
func Label(label string) {
	w.mu.Lock()
	w.pending = label
	atomic.StoreInt32(&w.hasPending, 1)
	w.mu.Unlock()
}

// Pause stops recording events until Resume; marks are still recorded.
func Pause() { w.mark(KindPause, "") }

// Resume restarts recording after Pause.
func Resume() { w.mark(KindResume, "") }

// End records that the program's main returned, as a mark of its own
// kind at that time, so that the time of a run reaches its end where the
// run's last event came before it (work after it that records nothing).
// The instrumenter defers it at the start of main.main; a program that
// recorded nothing gets no trace for it; one that leaves through
// os.Exit in main's file gets it from ExitCode.
func End() {
	if w.recording() {
		w.mark(KindEnd, tracefmt.EndMain)
	}
}

// ExitCode records the end of main, as End does, and returns code: the
// instrumenter wraps the code of each os.Exit call in the file that
// declares main.main, so that a run that leaves through os.Exit is timed
// to its end too.
func ExitCode(code int) int {
	End()
	return code
}

// EndSpan records the end of the span a Label began (a test's, a
// benchmark run's), as End does for the run, so that the span's time
// reaches it where its last event came before it. It writes nothing
// while the label is still pending: a span with no event has no end.
func EndSpan() {
	if w.recording() && atomic.LoadInt32(&w.hasPending) == 0 {
		w.mark(KindEnd, tracefmt.EndSpan)
	}
}

// Flush makes everything recorded so far durable on disk. It is never
// needed for the trace to survive the end of the process, however abrupt:
// a committed record is in the file (through the kernel's page cache) the
// moment it is written. Flush only matters if the machine itself may go
// down (power loss, a kernel crash).
func Flush() {
	if !w.recording() {
		return
	}
	for _, s := range w.shards[:len(w.shards)-w.nP] {
		s.mu.Lock()
		err := syncChunk(s.chunk)
		s.mu.Unlock()
		if err != nil {
			w.fail(fmt.Errorf("flushing %s: %w", w.path, err))
			return
		}
	}
	if err := w.syncLive(); err != nil {
		w.fail(fmt.Errorf("flushing %s: %w", w.path, err))
		return
	}
	if err := w.f.Sync(); err != nil {
		w.fail(fmt.Errorf("flushing %s: %w", w.path, err))
	}
}

// syncLive syncs the chunks mapped for the Ps' shards, which cannot be
// locked: where they are mapped. Holding w.mapMu keeps the mapper from
// unmapping one meanwhile; w.mu is held only to list them.
func (w *writer) syncLive() error {
	w.mapMu.Lock()
	defer w.mapMu.Unlock()
	w.mu.Lock()
	live := make([]*mappedChunk, 0, len(w.live))
	for c := range w.live {
		live = append(live, c)
	}
	w.mu.Unlock()
	for _, c := range live {
		if err := syncChunk(c.b); err != nil {
			return err
		}
	}
	return nil
}

// TracePath returns the path of this process's trace, or "" before the
// first record or when recording failed.
func TracePath() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.path
}

// recording reports whether the trace is open and records can be written
// (recording or paused).
func (w *writer) recording() bool {
	s := atomic.LoadInt32(&state)
	return s == stateRecording || s == statePaused
}

// What record did.
const (
	recorded  = iota
	needSpare // a P's shard had no room, and its spare was not mapped yet
	undone    // pinned, it found no shard or a label to write first
)

// walkInto returns the arrays a walk of record fills: those of the known
// context's entry slot (the walk goes straight into it), or with slot -1
// the shard's own.
func (s *shard) walkInto(slot int) (pcs, fps []uintptr) {
	if slot < 0 {
		return s.pcs[:], s.fps[:]
	}
	e := &s.ctx.e[slot]
	if e.n = 0; e.walk == nil {
		e.walk = new(ctxWalk)
	}
	return e.walk.pcs[:], e.walk.fps[:]
}

// cutK is the alignment of the cuts of stacks deeper than maxFrames
// (cutAt).
const cutK = 16

// cutAt returns the frames to keep of a walk of n frames cut at its
// length, beyond which the chain has beyond more frames: the innermost,
// down to a depth from the goroutine's first frame that is a multiple of
// cutK, so between n-cutK+1 and n of them. A recursion's stacks then keep
// the same outermost frame while their depth stays between two such
// depths, and intern finds most of each stack in the last one, where a
// cut at n frames, sliding with the depth, left it nothing in common.
func cutAt(n, beyond int) int {
	return n - (cutK-beyond%cutK)%cutK
}

// record records one getter call in a shard, pinned or locked: from the
// frame cache f of the reading function's activation, if given and it
// can (frame.go), or in its known context if known and fpFind finds one
// (repeat.go), else it walks the stack into the entry of its site or the
// shard's buffer (which need no clearing, unlike a fresh array), writes
// the event, and fills f. Locked, it always reports recorded (or
// dropped, if recording failed), and the shard is released however the
// record ends, a panic included; pinned, a panic is fatal whatever a
// deferred call would do (pinned.go), so there is none. It must not be
// inlined: the walk and fpFind start from its frame, and leave out its
// caller, String, readValue or readValueF.
//
//go:noinline
func (w *writer) record(id uint32, v recValue, pinned, read bool, f *FrameCache, k uint32) int {
	known := read && ctxOn
	var s *shard
	if !pinned {
		s = w.lockShard()
		defer s.release()
	} else if s = w.pinShard(); s == nil {
		return undone
	}
	if f != nil && pinned && frameOn {
		r := s.fromFrame(f, k, id, v)
		if r == undone && !s.holds(f) && !f.searched() {
			r = s.fromAnchor(f, k, id, v, 3) // record, readValueF, the recorder
		}
		if r != undone {
			s.unpin()
			return r
		}
	} else if f == nil && !read && pinned && frameOn {
		if r := s.fromAnchor(nil, 0, id, v, 2); r != undone { // record, String
			s.unpin()
			return r
		}
	}
	n, cut := 0, false // cut: the walk stopped at maxFrames, short of the goroutine's first frame
	s.root, s.read, s.depth = 0, known, 0
	pcs := s.pcs[:]
	if useFP {
		slot := -1
		if known && (f == nil || !frameOn) { // with a frame cache, the walk fills it
			if s.ctx == nil {
				s.ctx = new(ctxCache)
			}
			var hit bool // fpFind, as fpCallers, starts from this frame
			if slot, hit = fpFind(s.ctx, id); hit {
				s.short = false
				if r := s.known(slot, id, v); r != undone {
					if pinned {
						s.unpin()
					}
					return r
				}
			}
		}
		var fps []uintptr
		pcs, fps = s.walkInto(slot)
		end := walkEnd{ways: &s.roots}
		n = fpCallers(pcs, &end, fps) // pcs[0] is in String
		s.walks++
		if f != nil {
			s.fAt = uintptr(unsafe.Pointer(f)) // fill checks that the stack did not move since
		}
		s.root, s.walked, s.slot, s.chain = end.root, n, slot, 0
		if end.root != 0 {
			s.chain = end.frames
		}
		if cut = n == len(pcs); cut && end.root != 0 {
			n = cutAt(n, end.beyond)
		}
		if n > 0 {
			n--
		}
	} else {
		n = runtime.Callers(3, s.pcs[1:]) // leaving out Callers, record and String
		cut = n == len(s.pcs)-1
	}
	first := 1
	if read && n > 0 {
		first, n = 2, n-1 // a read's stack starts at the reading function
	}
	r := w.event(s, id, pcs[first:first+n], v, cut)
	if f != nil && pinned && frameOn && s.depth > 0 {
		s.fill(f, k, s.depth)
	}
	if pinned {
		s.unpin()
	}
	return r
}

// event records one getter call in shard s, with its stack pcs.
// A P's shard leaves it undone if a label is to be written first, which
// takes a lock, or if it finds no room (needSpare).
func (w *writer) event(s *shard, id uint32, pcs []uintptr, v recValue, cut bool) int {
	if atomic.LoadInt32(&w.hasPending) != 0 {
		if s.pinned {
			return undone
		}
		if label, ok := w.takePending(); ok {
			if seq, now, ok := w.order(s); ok {
				s.writeMark(KindMark, label, seq, now)
			}
		}
	}
	s.short = false
	st, ok := s.tree.intern(s, pcs, cut)
	if !ok {
		return s.outcome()
	}
	root := s.root // of a stack cut at maxFrames too (fpRoot), or 0
	var r int
	var done bool
	vid := uint32(0)
	if s.read && batchOn && len(st.pcIDs) == 0 && st.leaf != 0 && root != 0 {
		r, vid, done = s.writeKnown(id, st.leaf, root, v, 0) // in a batch
	} else {
		if vid = s.valueID(id, s.root, v); vid == 0 {
			return s.outcome()
		}
		r, done = w.writeEvent(s, id, st, vid, root)
	}
	if done {
		s.tree.commit(st)
		if root != 0 && s.tree.lastN == st.depth {
			s.depth = st.depth // record fills the frame cache
		}
		if ctxOn && s.read {
			s.arm(id, v, vid, root)
		}
	}
	return r
}

// writeEvent writes an event of getter id on stack st with value vid in
// shard s, and reports what it came to and whether it was written (not
// if there was no room, or recording was paused meanwhile). root is the
// address of the first frame of the goroutine (0: unknown), whose shard
// s becomes (own).
func (w *writer) writeEvent(s *shard, id uint32, st *stackRef, vid uint32, root uintptr) (int, bool) {
	b := s.reserve(6*10 + len(st.pcIDs)*5)
	if b == nil {
		return s.outcome(), false
	}
	if ctxOn {
		s.own(root)
	}
	seq, now, ok := w.order(s)
	if !ok {
		return recorded, false // paused between the check in String and now
	}
	n := putUvarint(b, uint64(id))
	n += st.put(b[n:], s.tree.next)
	n += putUvarint(b[n:], uint64(vid))
	kind := byte(kindEvent)
	if d := seq - s.lastSeq; d <= maxKindDelta {
		kind = byte(kindEventDelta + d - 1) // the delta is in the kind
	} else {
		n += putUvarint(b[n:], d)
	}
	n += putUvarint(b[n:], uint64(now-s.last))
	s.lastSeq, s.last = seq, now
	s.commit(kind, n)
	if batchOn {
		leaf := st.leaf
		if k := len(st.pcIDs); k > 0 {
			leaf = s.tree.next + uint32(k) - 1 // the last new node
		}
		s.noteEvent(leaf, id, vid)
	}
	return recorded, true
}

// seqPaused is the bit of writer.seq that says recording is paused. The
// sequence number and the pause state change together, in one atomic
// operation, so an event is recorded exactly when its number falls
// outside every pause (between a pause mark and the next resume mark)
// however the goroutines interleave.
const seqPaused = 1 << 63

// byClock says that the trace is ordered by the clock rather than by the
// sequence counter (format.go, "order"): where the monotonic clock is
// fine-grained enough, and unless SUNCAT_ORDER=counter.
var byClock = os.Getenv("SUNCAT_ORDER") != "counter" && clockIsFine()

// clockIsFine reports whether two readings of the monotonic clock, one
// after the other, always differ: its resolution is then finer than a
// reading, and so finer than anything by which one core can learn what
// another did, so two records one of which happened before the other
// never have the same time.
func clockIsFine() bool {
	start := time.Now()
	prev := time.Since(start)
	for i := 0; i < 1000; i++ {
		t := time.Since(start)
		if t <= prev {
			return false
		}
		prev = t
	}
	return true
}

// order gives an event of shard s its place in the trace: its sequence
// number and time, and whether it is to be recorded (not inside a pause).
// Ordered by the counter, the number comes from the process's one
// counter; ordered by the clock, the shard counts on its own and the
// event is recorded only if no pause or resume changed writer.seq while
// the clock was read, so its time is outside every pause.
func (w *writer) order(s *shard) (uint64, int64, bool) {
	s.marks = atomic.LoadUint64(&w.marks)
	if tickOn && atomic.LoadInt32(&w.ticking) == 0 {
		s.tick = true // armed when the record ends (unpin, release)
	}
	if !byClock {
		seq, ok := w.nextSeq()
		s.word = seq
		return seq, s.now(), ok
	}
	before := atomic.LoadUint64(&w.seq)
	now := s.now()
	ok := before&seqPaused == 0 && atomic.LoadUint64(&w.seq) == before
	s.word = before
	return s.lastSeq + 1, now, ok
}

// nextSeq hands out the next sequence number, and reports whether events
// are recorded at that point of the order.
func (w *writer) nextSeq() (uint64, bool) {
	v := atomic.AddUint64(&w.seq, 1)
	return v &^ seqPaused, v&seqPaused == 0
}

// setPaused hands out the sequence number of a pause (or resume) mark and
// sets the pause bit for the numbers after it.
func (w *writer) setPaused(paused bool) uint64 {
	for {
		old := atomic.LoadUint64(&w.seq)
		v := (old + 1) &^ seqPaused
		if paused {
			v |= seqPaused
		}
		if atomic.CompareAndSwapUint64(&w.seq, old, v) {
			return v &^ seqPaused
		}
	}
}

// takePending returns the pending label, if there still is one.
func (w *writer) takePending() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if atomic.SwapInt32(&w.hasPending, 0) == 0 {
		return "", false
	}
	atomic.AddUint64(&w.marks, 1)
	return w.pending, true
}

func (w *writer) mark(kind MarkKind, label string) {
	if !w.ready() {
		return
	}
	s := w.lockShard()
	defer s.release()
	w.mu.Lock()
	atomic.StoreInt32(&w.hasPending, 0)
	w.mu.Unlock()
	atomic.AddUint64(&w.marks, 1) // before the mark takes its time
	var seq uint64
	var now int64
	switch kind {
	case KindPause: // the state changes before the mark's time is read
		atomic.CompareAndSwapInt32(&state, stateRecording, statePaused)
		seq = w.setPaused(true)
		now = s.now()
	case KindResume: // and after it
		now = s.now()
		seq = w.setPaused(false)
	default: // by the clock, only pauses and resumes touch writer.seq
		if !byClock {
			seq, _ = w.nextSeq()
		}
		now = s.now()
	}
	if byClock {
		seq = s.lastSeq + 1
	}
	s.writeMark(kind, label, seq, now)
	if kind == KindResume {
		atomic.CompareAndSwapInt32(&state, statePaused, stateRecording)
	}
}

// now returns the time since the trace began, in nanoseconds.
func (w *writer) now() int64 { return nanotime() - w.startNano }

// recordable reports whether an event may be recorded now, opening the
// trace at first use: while recording, without a call (it is inlined
// into every recorder).
func recordable() bool {
	st := atomic.LoadInt32(&state)
	return st == stateRecording || st == stateNew && w.ready()
}

// ready opens the trace on first use and reports whether recording can
// go on.
func (w *writer) ready() bool {
	switch atomic.LoadInt32(&state) {
	case stateRecording, statePaused:
		return true
	case stateOff:
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if atomic.LoadInt32(&state) != stateNew {
		return w.recording()
	}
	if err := w.open(); err != nil {
		w.fail(err)
		if w.f != nil { // a trace that holds nothing is not left behind
			w.f.Close()
			os.Remove(w.path)
			w.f, w.path = nil, ""
		}
		return false
	}
	atomic.StoreInt32(&state, stateRecording)
	startControl(w.path)
	return true
}

// fail reports err once and stops recording for good.
func (w *writer) fail(err error) {
	if atomic.SwapInt32(&state, stateOff) != stateOff {
		fmt.Fprintf(os.Stderr, "suncat: trace recording stopped: %v\n", err)
	}
}

// open creates the trace file and the shards; w.mu is held, and no shard
// is in use yet. Shard 0 takes chunk 0, after the header.
func (w *writer) open() error {
	w.start, w.startNano = time.Now(), nanotime()
	if maxSize < 0 {
		_, err := ParseSize(os.Getenv(MaxSizeEnv))
		fmt.Fprintf(os.Stderr, "suncat: %v; the trace is capped at %s\n", err, sizeString(DefaultMaxSize))
		maxSize = DefaultMaxSize
	}
	path, f, err := createTrace(w.start)
	if err != nil {
		return err
	}
	if f, err = fileAboveStdio(f); err != nil {
		os.Remove(path)
		return fmt.Errorf("opening %s: %w", path, err)
	}
	protectTrace(f)
	w.f, w.path = f, path
	// The header goes to the file with a plain write first, so that a
	// process that dies while its trace is being mapped still leaves a
	// readable (empty) trace rather than a file of zeros.
	h := header(w.start)
	if _, err := f.WriteAt(h[:], 0); err != nil {
		return err
	}
	w.nP = pinnedShards()
	w.shards = make([]*shard, lockedShards(w.nP)+w.nP)
	for i := range w.shards {
		w.shards[i] = newShard(i, i >= len(w.shards)-w.nP)
	}
	s := w.shards[0]
	i, err := w.takeChunk()
	if err != nil { // the file is removed (ready): name its directory
		return fmt.Errorf("%w (a trace in %s)", err, filepath.Dir(w.path))
	}
	if s.chunk, err = w.mapChunk(i); err != nil {
		return err
	}
	populate(s.chunk)
	copy(s.chunk, h[:]) // the same bytes, now through the mapping
	s.index, s.off = i, headerSize
	w.counted = 1
	if w.head, err = mapHeader(w.f); err != nil {
		return fmt.Errorf("mapping %s: %w", w.path, err)
	}
	writeThrough(s.chunk, s.index, 0, headerSize)
	s.writeChunkRecord()
	w.opening = true // a table larger than a chunk takes more (lockChunks)
	s.writeGettersLocked(w.getters)
	w.opening = false
	w.wroteGT = len(w.getters) > 0
	if w.nP > 0 {
		w.live = make(map[*mappedChunk]struct{})
	}
	return nil
}

// header returns the file header of a trace started at start.
func header(start time.Time) [headerSize]byte {
	var h [headerSize]byte
	copy(h[:], magic)
	le32(h[tracefmt.OffVersion:], formatVersion)
	le32(h[tracefmt.OffHeaderSize:], headerSize)
	le32(h[tracefmt.OffChunkSize:], chunkSize)
	le32(h[tracefmt.OffPID:], uint32(os.Getpid()))
	le64(h[tracefmt.OffStart:], uint64(start.UnixNano()))
	prog := programName()
	le16(h[tracefmt.OffProgram:], uint16(len(prog)))
	copy(h[tracefmt.OffProgram+2:], prog)
	putArgs(h[tracefmt.OffProgram+2+len(prog):tracefmt.OffChunkCount], os.Args[1:])
	putChunkCount(h[tracefmt.OffChunkCount:], 1) // chunk 0, which holds the header
	return h
}

// putChunkCount writes the header's chunk count (format.go) into b.
func putChunkCount(b []byte, n int) {
	le32(b, chunkCountTag)
	le32(b[4:], uint32(n))
}

// lockChunks takes w.mu, which guards the chunks handed out and
// counted, and returns its unlock; while open writes the getter table,
// which holds w.mu already, it does nothing. A table larger than the
// first chunk's room (a -reads -deps build of thousands of fields with
// long names) goes on into more chunks before recording starts, and
// taking w.mu again there left the program deadlocked at its start.
// While the trace is opened no other goroutine records: they wait in
// ready for w.mu, and read opening only once open has returned.
func (w *writer) lockChunks() func() {
	if w.opening {
		return func() {}
	}
	w.mu.Lock()
	return w.mu.Unlock
}

// takeChunk hands out the next chunk of the file and grows the file to
// hold it, its space reserved on disk where it is to be mapped
// (reserveChunk), within the size cap; w.mu is held. The file only
// grows, as chunks are handed out in order.
func (w *writer) takeChunk() (int, error) {
	i := w.nextChunk
	if mappedChunks {
		if err := w.reserveChunk(i); err != nil {
			return 0, err
		}
	} else if err := w.f.Truncate(int64(i+1) * chunkSize); err != nil {
		return 0, fmt.Errorf("growing %s: %w", w.path, err)
	}
	w.nextChunk++
	return i, nil
}

// countChunk raises the header's chunk count to cover chunk i, which a
// shard begins, so that a reader knows a file cut after a chunk of a shard
// that was not full (format.go). Where chunks are mapped, it writes to the
// mapped header, with no system call (a P's shard calls it pinned).
func (w *writer) countChunk(i int) {
	if w.head != nil {
		p := (*uint32)(unsafe.Pointer(&w.head[tracefmt.OffChunkCount+4]))
		for {
			old := atomic.LoadUint32(p)
			if old > uint32(i) || atomic.CompareAndSwapUint32(p, old, uint32(i+1)) {
				return
			}
		}
	}
	defer w.lockChunks()()
	if i < w.counted {
		return
	}
	w.counted = i + 1
	var b [8]byte
	putChunkCount(b[:], i+1)
	if _, err := w.f.WriteAt(b[:], tracefmt.OffChunkCount); err != nil {
		w.fail(fmt.Errorf("counting chunks in %s: %w", w.path, err))
	}
}

// elided reports whether runtime.Callers would leave out the frame: the
// wrappers the compiler generates for go and defer statements and for
// method values, and runtime.deferreturn (which runs deferred calls that
// are not open-coded). Frame-pointer unwinding sees them, so they are
// dropped when its stacks are symbolized.
func elided(fn, file string) bool {
	if file == "<autogenerated>" || fn == "runtime.deferreturn" {
		return true
	}
	i := strings.LastIndexByte(fn, '.')
	if i < 0 {
		return false
	}
	last := strings.TrimRight(fn[i+1:], "0123456789")
	return last == "gowrap" || last == "deferwrap"
}

// cut returns the first MaxValue bytes of s, or fewer so as not to split
// a UTF-8 sequence.
func cut(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	n := MaxValue
	for k := 0; k < utf8.UTFMax && n > 0 && !utf8.RuneStart(s[n]); k++ {
		n--
	}
	return s[:n]
}

func le16(b []byte, v uint16) { b[0], b[1] = byte(v), byte(v>>8) }
func le32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
func le64(b []byte, v uint64) { le32(b, uint32(v)); le32(b[4:], uint32(v>>32)) }

// putArgs writes the program's arguments into the rest of the header, h:
// a u16 count, then each as a u16 length and its bytes. Those that do not
// fit are left out (the count says how many are there).
func putArgs(h []byte, args []string) {
	if len(h) < 2 {
		return
	}
	off, k := 2, 0
	for _, a := range args {
		if off+2+len(a) > len(h) || len(a) > 0xffff {
			break
		}
		le16(h[off:], uint16(len(a)))
		copy(h[off+2:], a)
		off += 2 + len(a)
		k++
	}
	le16(h, uint16(k))
}

func programName() string {
	p := filepath.Base(os.Args[0])
	if len(p) > maxProgramName {
		p = p[:maxProgramName]
	}
	return p
}

// TraceEnv is the environment variable that says where traces go
// (tracefmt.TraceEnv).
const TraceEnv = tracefmt.TraceEnv

// createTrace creates this process's trace file, readable by this user
// only (0600; open calls protectTrace, which makes it 0400). The name is <program>-<pid>-<start time>.suncat, so
// processes never share a file. When SUNCAT_TRACE names a file that does
// not exist yet, that name is used (its folder made if need be); if it
// exists, the process-unique name is used beside it. O_EXCL makes the file new: a symbolic link planted
// at its name is never followed (it exists). A directory that
// SUNCAT_TRACE names is made 0700 if it is not there; the default one
// must be this user's own and private (tracefmt.MakeDefaultDir).
func createTrace(start time.Time) (string, *os.File, error) {
	unique := fmt.Sprintf("%s-%d-%s.suncat", safeName(programName()), os.Getpid(), start.UTC().Format("20060102T150405.000000000"))
	env := os.Getenv(TraceEnv)
	dir := ""
	switch {
	case env == "":
		d, err := tracefmt.MakeDefaultDir()
		if err != nil {
			return "", nil, err
		}
		dir = d
	default:
		if !filepath.IsAbs(env) {
			abs, err := filepath.Abs(env)
			if err != nil {
				return "", nil, fmt.Errorf("%s=%q: %v", TraceEnv, env, err)
			}
			env = abs
		}
		fi, err := os.Stat(env)
		if err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
			// /dev/null, a FIFO: not a place for a trace, nor is the
			// folder it is in.
			return "", nil, fmt.Errorf("%s=%s: not a directory or a regular file; nothing is recorded", TraceEnv, env)
		}
		if (err == nil && fi.IsDir()) || strings.HasSuffix(os.Getenv(TraceEnv), string(filepath.Separator)) {
			dir = env
		} else {
			// A file in a folder not made yet (a script's tr/n800.suncat
			// before its tr/): the folder is made as a named one is.
			if err := os.MkdirAll(filepath.Dir(env), 0o700); err != nil {
				return "", nil, err
			}
			f, err := os.OpenFile(env, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			if err == nil {
				return env, f, nil
			}
			if !os.IsExist(err) {
				return "", nil, err
			}
			dir = filepath.Dir(env)
			unique = strings.TrimSuffix(filepath.Base(env), ".suncat") + "-" + unique
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, unique)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", nil, err
	}
	return path, f, nil
}

func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}
