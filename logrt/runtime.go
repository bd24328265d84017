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
)

// Recording states, read without the lock on the hot path.
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

// w is the process's one trace writer; everything in it is guarded by mu.
var w writer

type writer struct {
	mu      sync.Mutex
	f       *os.File
	path    string
	chunk   []byte // the mapped chunk being written
	index   int    // its index in the file
	off     int    // next free byte in chunk
	start   time.Time
	last    int64 // time of the previous event or mark, ns since start
	getters []Getter
	wroteGT bool

	tree     callTree // interned stacks (stack.go)
	ref      stackRef // the stack of the event being written
	strIDs   map[string]uint32
	strBytes int // bytes of the keys of strIDs
	nextStr  uint32

	pending    string // a Label to record before the next event
	hasPending bool
	key        [MaxValue + 10]byte // the key of a cut value, see internString
}

// SetGetters records the getter table of the instrumented program. It is
// called once, from generated code, before main runs.
func SetGetters(gs []Getter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.getters = append(w.getters[:0], gs...)
	w.wroteGT = false
	if atomic.LoadInt32(&state) == stateRecording || atomic.LoadInt32(&state) == statePaused {
		w.writeGetters()
	}
}

// Start opens the trace, and the control socket (see control.go), now
// rather than at the first getter call, so that a mark sent before it
// (suncat mark, then the request) is in the trace. Generated code calls it
// before main runs in programs; test binaries open theirs at first use.
func Start() {
	w.mu.Lock()
	defer w.unlock()
	w.ready()
}

// String records one call of getter id returning v, with the caller's
// stack (the getter itself is the first frame), and returns v.
func String(id uint32, v string) string {
	if atomic.LoadInt32(&state) <= stateRecording {
		var pcs [maxFrames]uintptr
		var n int
		if useFP {
			n = fpCallers(pcs[:])
		} else {
			n = runtime.Callers(2, pcs[:])
		}
		w.event(id, pcs[:n], v)
	}
	if delays != nil {
		delay(id)
	}
	return v
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
	w.pending, w.hasPending = label, true
	w.mu.Unlock()
}

// Pause stops recording events until Resume; marks are still recorded.
func Pause() { w.mark(KindPause, "") }

// Resume restarts recording after Pause.
func Resume() { w.mark(KindResume, "") }

// Flush makes everything recorded so far durable on disk. It is never
// needed for the trace to survive the end of the process, however abrupt:
// a committed record is in the file (through the kernel's page cache) the
// moment it is written. Flush only matters if the machine itself may go
// down (power loss, a kernel crash).
func Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil || atomic.LoadInt32(&state) == stateOff {
		return
	}
	if err := syncChunk(w.chunk); err != nil {
		w.fail(fmt.Errorf("flushing %s: %v", w.path, err))
		return
	}
	if err := w.f.Sync(); err != nil {
		w.fail(fmt.Errorf("flushing %s: %v", w.path, err))
	}
}

// TracePath returns the path of this process's trace, or "" before the
// first record or when recording failed.
func TracePath() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.path
}

func (w *writer) event(id uint32, pcs []uintptr, v string) {
	w.mu.Lock()
	defer w.unlock()
	if !w.ready() || atomic.LoadInt32(&state) != stateRecording {
		return
	}
	if w.hasPending {
		w.hasPending = false
		w.writeMark(KindMark, w.pending)
	}
	st, ok := w.tree.intern(w, pcs)
	vid := w.internString(v)
	now := w.now()
	if !ok || vid == 0 {
		return
	}
	b := w.reserve(5*10 + len(st.pcIDs)*5)
	if b == nil {
		return
	}
	n := putUvarint(b, uint64(id))
	n += st.put(b[n:], w.tree.next)
	n += putUvarint(b[n:], uint64(vid))
	n += putUvarint(b[n:], uint64(now-w.last))
	w.last = now
	w.commit(kindEvent, n)
	w.tree.commit(st)
}

// unlock releases w.mu at the end of a record. A panic inside the writer
// (a bug, or a system error surfacing as one) must not take the host
// program down: it stops recording, and the record being written stays
// uncommitted, so the reader skips it.
func (w *writer) unlock() {
	if r := recover(); r != nil {
		w.fail(fmt.Errorf("internal error: %v", r))
	}
	w.mu.Unlock()
}

func (w *writer) mark(kind MarkKind, label string) {
	w.mu.Lock()
	defer w.unlock()
	if !w.ready() {
		return
	}
	w.hasPending = false
	w.writeMark(kind, label)
}

// writeMark writes a mark record; w.mu is held and the trace is open.
func (w *writer) writeMark(kind MarkKind, label string) {
	label = cut(label)
	now := w.now()
	b := w.reserve(1 + 10 + stringLen(label))
	if b == nil {
		return
	}
	n := putUvarint(b, uint64(kind))
	n += putUvarint(b[n:], uint64(now-w.last))
	n += putString(b[n:], label)
	w.last = now
	w.commit(kindMark, n)
	switch kind {
	case KindPause:
		atomic.CompareAndSwapInt32(&state, stateRecording, statePaused)
	case KindResume:
		atomic.CompareAndSwapInt32(&state, statePaused, stateRecording)
	}
}

func (w *writer) now() int64 {
	t := int64(time.Since(w.start))
	if t < w.last {
		t = w.last
	}
	return t
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
	if err := w.open(); err != nil {
		w.fail(err)
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

func (w *writer) open() error {
	w.start = time.Now()
	path, f, err := createTrace(w.start)
	if err != nil {
		return err
	}
	w.f, w.path = f, path
	w.tree.reset()
	w.strIDs = make(map[string]uint32)
	// The header goes to the file with a plain write first, so that a
	// process that dies while its trace is being mapped still leaves a
	// readable (empty) trace rather than a file of zeros.
	var h [headerSize]byte
	copy(h[:], magic)
	le32(h[8:], formatVersion)
	le32(h[12:], headerSize)
	le32(h[16:], chunkSize)
	le32(h[20:], uint32(os.Getpid()))
	le64(h[24:], uint64(w.start.UnixNano()))
	prog := programName()
	le16(h[32:], uint16(len(prog)))
	copy(h[34:], prog)
	putArgs(h[34+len(prog):], os.Args[1:])
	if _, err := f.WriteAt(h[:], 0); err != nil {
		return err
	}
	if err := w.mapChunk(0); err != nil {
		return err
	}
	copy(w.chunk, h[:]) // the same bytes, now through the mapping
	w.off = headerSize
	writeThrough(w, 0, headerSize)
	w.writeGetters()
	return nil
}

func (w *writer) mapChunk(i int) error {
	b, err := mapChunk(w.f, i, w.chunk)
	if err != nil {
		return fmt.Errorf("mapping %s: %v", w.path, err)
	}
	w.chunk, w.index, w.off = b, i, 0
	return nil
}

// reserve returns room for a payload of at most n bytes in the current
// chunk, moving to a new chunk (after a padding record) when needed.
func (w *writer) reserve(n int) []byte {
	need := 4 + n + 3
	if need > chunkSize-headerSize {
		return nil
	}
	if w.off+need > len(w.chunk) {
		if rest := len(w.chunk) - w.off; rest >= 4 {
			w.commit(kindPad, rest-4) // fills the chunk: commit maps the next
		} else if err := w.mapChunk(w.index + 1); err != nil {
			w.fail(err)
			return nil
		}
		if w.off+need > len(w.chunk) {
			return nil // the next chunk could not be mapped
		}
	}
	return w.chunk[w.off+4 : w.off+4+n]
}

// commit publishes the record whose payload of n bytes was written after
// the commit word at w.off.
func (w *writer) commit(kind byte, n int) {
	word := uint32(kind) | uint32(n)<<8
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&w.chunk[w.off])), word)
	size := (4 + n + 3) &^ 3
	writeThrough(w, w.off, size)
	w.off += size
	if w.off == len(w.chunk) {
		// A full chunk: the next one is mapped now, so that a whole
		// trace always holds a zero commit word after its last record
		// (a reader tells a file cut at a chunk boundary by its absence).
		if err := w.mapChunk(w.index + 1); err != nil {
			w.fail(err)
		}
	}
}

func (w *writer) writeGetters() {
	if w.wroteGT || len(w.getters) == 0 || w.chunk == nil {
		return
	}
	w.wroteGT = true
	// Very large tables are written in pieces that fit a record.
	for gs := w.getters; len(gs) > 0; {
		size, k := uvarintLen(uint64(len(gs))), 0
		for k < len(gs) && size < chunkSize/4 {
			size += getterLen(gs[k])
			k++
		}
		b := w.reserve(size)
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
		w.commit(kindGetters, n)
		gs = gs[k:]
	}
}

func getterLen(g Getter) int {
	return uvarintLen(uint64(g.ID)) + stringLen(g.Package) + stringLen(g.Receiver) +
		stringLen(g.Method) + stringLen(g.File) + uvarintLen(uint64(g.Line)) + stringLen(g.Field)
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

// internString returns the id of value v, defining it first if needed.
// Values longer than MaxValue are cut (at a UTF-8 boundary) and interned
// by what the trace keeps of them, the kept bytes and the full length, so
// a long value that repeats is also defined once. Interning stops after
// maxInterned values or maxInternedBytes bytes of them, to bound memory;
// further new values are defined again at each use.
func (w *writer) internString(v string) uint32 {
	kept := cut(v)
	var key string
	if len(kept) == len(v) {
		if id, ok := w.strIDs[v]; ok {
			return id
		}
	} else {
		n := copy(w.key[:], kept)
		n += putUvarint(w.key[n:], uint64(len(v)))
		if id, ok := w.strIDs[string(w.key[:n])]; ok { // no allocation
			return id
		}
		key = string(w.key[:n])
	}
	w.nextStr++
	id := w.nextStr
	if len(w.strIDs) < maxInterned && w.strBytes < maxInternedBytes {
		if key == "" {
			key = string(append([]byte(nil), v...)) // v may be part of a larger string
		}
		w.strIDs[key] = id
		w.strBytes += len(key)
	}
	b := w.reserve(2*10 + stringLen(kept))
	if b == nil {
		return 0
	}
	n := putUvarint(b, uint64(id))
	n += putUvarint(b[n:], uint64(len(v)))
	n += putString(b[n:], kept)
	w.commit(kindString, n)
	return id
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

// TraceEnv is the environment variable that says where traces go: an
// absolute path of a directory (each process writes its own file in it) or
// of a file.
const TraceEnv = "SUNCAT_TRACE"

// DefaultDir is where traces go when SUNCAT_TRACE is not set.
func DefaultDir() string { return filepath.Join(os.TempDir(), "suncat-traces") }

// createTrace creates this process's trace file. The name is
// <program>-<pid>-<start time>.suncat, so processes never share a file.
// When SUNCAT_TRACE names a file that does not exist yet, that name is
// used; if it exists, the process-unique name is used beside it.
func createTrace(start time.Time) (string, *os.File, error) {
	unique := fmt.Sprintf("%s-%d-%s.suncat", safeName(programName()), os.Getpid(), start.UTC().Format("20060102T150405.000000000"))
	env := os.Getenv(TraceEnv)
	dir := ""
	switch {
	case env == "":
		dir = DefaultDir()
	default:
		if !filepath.IsAbs(env) {
			abs, err := filepath.Abs(env)
			if err != nil {
				return "", nil, fmt.Errorf("%s=%q: %v", TraceEnv, env, err)
			}
			env = abs
		}
		if fi, err := os.Stat(env); (err == nil && fi.IsDir()) || strings.HasSuffix(os.Getenv(TraceEnv), string(filepath.Separator)) {
			dir = env
		} else {
			f, err := os.OpenFile(env, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, unique)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
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
