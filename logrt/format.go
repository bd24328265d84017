package logrt

// The trace file format, version 2 (the reader also reads version 1).
//
// A trace is one file per process. The writer maps it into memory in chunks
// (MAP_SHARED), so every record that is complete when the process dies, by
// any means including SIGKILL, is already in the kernel's page cache and
// reaches the file. There is no goroutine and no signal handler behind this
// guarantee.
//
//	file:   | header (512 bytes) | record | record | ... | zero bytes ... |
//	        |<-------------------- chunk 0 ------------------>| chunk 1 ...
//
//	header: | magic "SUNCATTR" (8) | version u32 | header size u32 |
//	        | chunk size u32 | pid u32 | start unix ns i64 |
//	        | program name: u16 length + bytes |
//	        | arguments (os.Args[1:]): u16 count, then each u16 length +
//	        |   bytes; those that do not fit are left out | zero padding to 512 |
//
//	record: | commit word u32 | payload ... | zero padding to 4 bytes |
//	          commit word = kind (low 8 bits) | payload length << 8
//
// All integers in the header are little endian. Records never cross a
// chunk boundary: a record that does not fit is preceded by a padding
// record that fills the rest of the chunk. Records are written one at a
// time (under a mutex): the payload first, then the commit word with an
// atomic store. The first zero commit word therefore ends the trace; if the
// bytes after it are not all zero, a record was being written when the
// process died, and the reader skips it and reports it (Trace.Torn).
//
// Payloads are sequences of unsigned varints (u) and strings (s: u length,
// then bytes):
//
//	kindGetters: u count, then per getter: u id, s package, s receiver,
//	             s method, s file, u line, s field
//	kindFrames:  u pc id, u frames, then per frame: s function, s file,
//	             u line: what one return address stands for, innermost
//	             first (several frames where calls were inlined)
//	kindString:  u id, u original length, s value (capped at MaxValue bytes,
//	             cut at a UTF-8 boundary)
//	kindEvent:   u getter id, u new nodes k, then if k = 0: u back (the
//	             stack is node next-back), else: u back (the new nodes'
//	             parent is node next-back) and k times u pc id (each new
//	             node is its parent plus that frame; the last is the
//	             stack); then u string id, u time delta
//	kindMark:    u mark kind (1 mark, 2 pause, 3 resume), u time delta,
//	             s label
//	kindPad:     ignored bytes up to the end of the chunk
//
// Stacks form a call-site tree (stack.go): node 0 is the empty stack at
// the root, and node ids count up from 1 in the order events define them;
// next is the id the first new node of the event gets. A node's stack is
// its frames, then its parent's. The pc id 0 marks a stack cut at
// maxFrames frames (it is the outermost node of such a stack, and has no
// frames).
//
// Version 1 had no kindFrames; its stacks were interned whole:
//
//	kindStack:   u id, u flags (1: truncated at maxFrames), u frames, then
//	             per frame: s function, s file, u line. Frame 0 is the
//	             getter; the last frames are the goroutine's entry.
//	kindEvent:   u getter id, u stack id, u string id, u time delta
//
// Time deltas are nanoseconds of the monotonic clock since the previous
// event or mark (the first since the start time in the header). Frames and
// strings are interned: each is defined once, before the first event that
// uses it, and events refer to it by id. A program with very many distinct
// values stops remembering them after maxInterned (or maxInternedBytes)
// and writes a new definition for each further value, so the writer's
// memory stays bounded.
const (
	magic          = "SUNCATTR"
	formatVersion  = 2
	headerSize     = 512
	chunkSize      = 8 << 20
	maxProgramName = 256

	// MaxValue is the number of bytes of a string value that a trace
	// keeps. Longer values are cut, and the trace records their original
	// length (Event.Truncated, Event.Len).
	MaxValue = 1024

	// maxFrames is the deepest stack recorded; deeper stacks are cut at
	// the outermost end and flagged.
	maxFrames = 128

	maxInterned      = 1 << 16
	maxInternedBytes = 16 << 20
)

const (
	kindGetters = 1
	kindStack   = 2
	kindString  = 3
	kindEvent   = 4
	kindMark    = 5
	kindPad     = 6
	kindFrames  = 7
)

// MarkKind tells a mark from a pause or a resume.
type MarkKind uint8

const (
	KindMark   MarkKind = 1
	KindPause  MarkKind = 2
	KindResume MarkKind = 3
)

func (k MarkKind) String() string {
	switch k {
	case KindMark:
		return "mark"
	case KindPause:
		return "pause"
	case KindResume:
		return "resume"
	}
	return "unknown"
}

// Getter describes one instrumented getter. The instrumenter passes the
// table once, from generated code: func init() { SetGetters(table) }.
type Getter struct {
	ID       uint32 // 1-based, dense
	Package  string // import path
	Receiver string // "*Stop", "Stop", "List[T]", "" for plain functions
	Method   string
	File     string // absolute path of the original source file
	Line     int    // line of the declaration
	Field    string // the field(s) it returns
}

// Name is the getter's short readable name: "Stop.Name", "(*Stop).Name",
// or the function name.
func (g Getter) Name() string {
	switch {
	case g.Receiver == "":
		return g.Method
	case g.Receiver[0] == '*':
		return "(" + g.Receiver + ")." + g.Method
	}
	return g.Receiver + "." + g.Method
}

func putUvarint(b []byte, x uint64) int {
	i := 0
	for x >= 0x80 {
		b[i] = byte(x) | 0x80
		x >>= 7
		i++
	}
	b[i] = byte(x)
	return i + 1
}

func putString(b []byte, s string) int {
	n := putUvarint(b, uint64(len(s)))
	return n + copy(b[n:], s)
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

func stringLen(s string) int { return uvarintLen(uint64(len(s))) + len(s) }
