package logrt

import (
	"errors"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Writing pinned. A goroutine pinned to its P (procPin: until it unpins,
// the scheduler neither preempts it nor runs another goroutine on that P)
// is alone in using that P's shard, so it records without a lock: taking
// and releasing one cost two atomic operations per event, 7% of the CPU
// time of testdata/recbench instrumented (BENCH.md).
//
// Pinned, a goroutine must not block or enter the scheduler: no mutex, no
// system call through the syscall package (the P could be taken from it
// while in the call, and the runtime throws). So a P's shard never maps a
// chunk itself. A mapper goroutine keeps one spare chunk mapped for each
// P's shard in use; the shard moves to it when its chunk is full and hands
// the chunk it leaves back to the mapper, which unmaps it. The mapper is
// started when there is work for it and ends when there is none, so that
// it is not left behind, to be reported by tests that check for leaked
// goroutines, in programs run under suncat test. Whatever a
// pinned record cannot do without blocking (no spare is ready yet, a label
// is to be written first, the P has no shard of its own) it leaves undone
// and says so, and the call is recorded again, whole, in a locked shard.
//
// A pinned goroutine cannot be preempted either, so a stop-the-world
// phase of the garbage collector waits for the record it is in, which is
// short save when it doubles one of the shard's tables (BENCH.md).
//
// The race detector cannot see that pinning orders the goroutines of one
// P, so in race builds a pinned shard also takes its lock.

// A mappedChunk is a chunk mapped for a P's shard.
type mappedChunk struct {
	b     []byte
	index int
	next  *mappedChunk // in writer.retired
}

// maxPinnedShards bounds the Ps' shards (about 15 KiB each before their
// tables grow): enough for the Ps of the largest servers Go runs on, so
// that their goroutines do not queue for the two locked shards; the Ps
// beyond it record in those.
const maxPinnedShards = 256

// pinnedShards returns how many shards of their own the Ps get: one for
// each P the program can have without changing GOMAXPROCS above the
// number of CPUs, within bounds; none where chunks are not mapped (every
// commit is then a system call, mmap_other.go) or with SUNCAT_PIN=0.
func pinnedShards() int {
	if !mappedChunks || os.Getenv("SUNCAT_PIN") == "0" {
		return 0
	}
	n := runtime.GOMAXPROCS(0)
	if c := runtime.NumCPU(); c > n {
		n = c
	}
	if n > maxPinnedShards {
		n = maxPinnedShards
	}
	return n
}

// pinShard pins the goroutine to its P and returns the P's shard, or
// returns nil, unpinned, if the P has none.
func (w *writer) pinShard() *shard {
	p := procPin()
	if p < w.nP {
		s := w.shards[len(w.shards)-w.nP+p]
		if atomic.LoadInt32(&s.capped) != 0 {
			procUnpin()
			return nil
		}
		if raceEnabled {
			s.mu.Lock()
		}
		return s
	}
	procUnpin()
	return nil
}

// unpin ends a record in a P's shard, and starts the mapper if the shard
// took or wanted a spare. (A locked shard's record ends with release,
// which also recovers from a panic; a panic while pinned is fatal: the
// runtime throws, before any deferred call runs, while m.locks > 0. So
// the pinned path must not panic: every reserve covers the largest record
// it writes, logrt's tests and fuzzing run it, and SUNCAT_PIN=0 keeps to
// the locked shards.)
func (s *shard) unpin() {
	start, tick := s.wake, s.tick
	s.wake, s.tick = false, false
	if raceEnabled {
		s.mu.Unlock()
	}
	procUnpin()
	if start && atomic.CompareAndSwapInt32(&w.mapping, 0, 1) {
		go w.mapSpares()
	}
	if tick {
		w.armTick()
	}
}

// takeSpare returns the spare chunk the mapper made for a P's shard, or
// nil if there is none yet; either way the mapper is to be started, to
// map the next spare.
//
// A shard that takes its first chunk wants no spare after it until it has
// filled that one: each chunk's space is reserved on disk (reserveChunk),
// and a P that a goroutine passes through would keep a MiB of it for
// nothing.
func (s *shard) takeSpare() *mappedChunk {
	s.wake = true
	if atomic.LoadInt32(&s.wants) == 0 {
		atomic.StoreInt32(&s.wants, 1)
	}
	c := (*mappedChunk)(atomic.SwapPointer(&s.spare, nil))
	if c != nil && atomic.LoadInt32(&s.begun) == 0 {
		atomic.StoreInt32(&s.wants, 0)
	}
	return c
}

// retire hands chunk c, which a P's shard left, to the mapper to unmap.
func (w *writer) retire(c *mappedChunk) {
	for {
		head := atomic.LoadPointer(&w.retired)
		c.next = (*mappedChunk)(head)
		if atomic.CompareAndSwapPointer(&w.retired, head, unsafe.Pointer(c)) {
			return
		}
	}
}

// mapSpares is the mapper: it unmaps the chunks that the Ps' shards left
// and maps a spare for each P's shard that wants one, until none does; it
// runs while w.mapping is 1, and only one runs at a time. A shard that
// wants a spare after the last look but before w.mapping is cleared
// starts no mapper, so the mapper looks once more after clearing it.
func (w *writer) mapSpares() {
	for {
		if !w.refillNow() {
			atomic.StoreInt32(&w.mapping, 0)
			return
		}
		atomic.StoreInt32(&w.mapping, 0)
		if !w.wantsMapping() || !atomic.CompareAndSwapInt32(&w.mapping, 0, 1) {
			return
		}
	}
}

// wantsMapping reports whether the mapper has work: a chunk to unmap, or
// a P's shard that wants a spare.
func (w *writer) wantsMapping() bool {
	if atomic.LoadPointer(&w.retired) != nil {
		return true
	}
	for _, s := range w.shards[len(w.shards)-w.nP:] {
		if atomic.LoadInt32(&s.wants) != 0 && atomic.LoadPointer(&s.spare) == nil {
			return true
		}
	}
	return false
}

// outcome tells what an event that a shard's dictionaries or chunk could
// not take came to: recorded (dropped, as recording failed) or, for a P's
// shard that found no room, needSpare.
func (s *shard) outcome() int {
	if s.short {
		return needSpare
	}
	return recorded
}

// refillNow unmaps the chunks the Ps' shards left and maps a spare for
// each that wants one, and reports whether recording goes on.
func (w *writer) refillNow() bool {
	w.mapMu.Lock()
	defer w.mapMu.Unlock()
	if !w.recording() {
		return false
	}
	if err := w.refill(); err != nil {
		w.stop(nil, err)
		return false
	}
	return true
}

// refill does refillNow's work; w.mapMu is held.
func (w *writer) refill() error {
	for c := (*mappedChunk)(atomic.SwapPointer(&w.retired, nil)); c != nil; c = c.next {
		w.mu.Lock()
		delete(w.live, c)
		w.mu.Unlock()
		unmapChunk(c.b)
	}
	for _, s := range w.shards[len(w.shards)-w.nP:] {
		if atomic.LoadInt32(&s.wants) == 0 || atomic.LoadPointer(&s.spare) != nil {
			continue
		}
		c, err := w.mapSpare(s)
		if errors.Is(err, errFull) {
			// The size cap: the shard's goroutines record in the
			// locked shards, in the room their chunks have left;
			// recording stops when one of those needs a chunk.
			atomic.StoreInt32(&s.capped, 1)
			atomic.StoreInt32(&s.wants, 0)
			atomic.StoreInt32(&w.capped, 1)
			continue
		}
		if err != nil {
			return err
		}
		atomic.StorePointer(&s.spare, unsafe.Pointer(c))
	}
	return nil
}

// mapSpare hands out a chunk and maps it as a spare for shard s, its pages
// faulted in ahead where the system can (prefault), once s has filled a
// chunk: the first chunk of a P's shard, and its first spare, may never be
// filled (a short-lived program, a P that a goroutine passes through), and
// their pages would take a MiB of disk each, for each of up to 256 Ps,
// for nothing; their pages are faulted in as records reach them.
func (w *writer) mapSpare(s *shard) (*mappedChunk, error) {
	w.mu.Lock()
	i, err := w.takeChunk()
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	b, err := w.mapChunk(i)
	if err != nil {
		return nil, err
	}
	if atomic.LoadInt32(&s.begun) >= 2 {
		prefault(w.f, i, b)
	}
	c := &mappedChunk{b: b, index: i}
	w.mu.Lock()
	w.live[c] = struct{}{}
	w.mu.Unlock()
	return c, nil
}
