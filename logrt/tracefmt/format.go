package tracefmt

import "hash/crc32"

// The trace file format, version 8 (the reader also reads versions 1
// to 7). Version 8 adds a mark kind, end (4): the program's main
// returned, or a test's or benchmark run's span ended (suncat test), at
// the mark's time (its label says which: "main" or "span"), so that a
// run's or a span's time reaches its end where its last event came
// before it. Version 7 adds a value kind to batch entries: v = 3, the
// previous integer on the node plus one (a loop's index), in no bytes.
// Version 6 has the records of version 5; the stack of a field
// read (suncat instrument -reads) starts at the reading function, where
// earlier versions put the runtime's recorder (suncatrt.ReadString and
// the like) first: the tree is a level shallower, and a read whose
// stack is new adds one node fewer.
//
// A trace is one file per process. The writer maps it into memory in chunks
// (MAP_SHARED), so every record that is complete when the process dies, by
// any means including SIGKILL, is already in the kernel's page cache and
// reaches the file. There is no goroutine and no signal handler behind this
// guarantee.
//
//	file:   | header (512 bytes) | records of shard 0 ...   | zeros |
//	        |<-------------------- chunk 0 ------------------------>|
//	        | records of shard k ...                         | zeros |
//	        |<-------------------- chunk 1 ------------------------>| ...
//
//	header: | magic "SUNCATTR" (8) | version u32 | header size u32 |
//	        | chunk size u32 | pid u32 | start unix ns i64 |
//	        | program name: u16 length + bytes |
//	        | arguments (os.Args[1:]): u16 count, then each u16 length +
//	        |   bytes; those that do not fit are left out | zero padding |
//	        | chunk count tag u32 | chunks handed out u32 |  (the last 8 bytes)
//
//	record: | commit word u32 | payload ... | zero padding to 4 bytes |
//	          commit word = kind (low 8 bits) | payload length << 8
//
// All integers in the header are little endian. The chunk count, after
// its tag (ChunkCountTag; traces written before it have zeros or argument
// bytes there), is raised each time a shard begins a chunk (it counts up
// to the last chunk begun), so a reader knows a file cut after a chunk
// that was not full, whose shard's stream looks whole: the last chunk
// begun must begin in the file. Chunks after it may be spares, mapped
// ahead and never written.
//
// The writer has several shards (logrt/shard.go): one for each P, written only
// by goroutines pinned to that P, and a few with a lock (logrt/pinned.go), so
// that goroutines recording at the same time do not wait for each other.
// Each chunk belongs to one shard and starts with a RecChunk record
// naming it (chunk 0, shard 0's first, after the header); a shard's
// records, read chunk after chunk in file order, are its stream. Records
// never cross a chunk boundary, and each leaves room for a commit word
// after it: the last record of a chunk is a padding record that fills it,
// written once the shard's next chunk is mapped, and the shard goes on in
// that chunk. In a stream, records are written one at a time: the payload
// first, then the commit word with an atomic store. The first zero commit
// word therefore ends a stream; if the bytes after it in its chunk are not
// all zero, a record was being written when the process died, and the
// reader skips it and reports it (tracefile.Trace.Torn). A chunk whose first word is
// zero was handed out but never written, and is skipped.
//
// Payloads are sequences of unsigned varints (u) and strings (s: u length,
// then bytes):
//
//	RecChunk:    u shard, u order (0: by the counter, 1: by the clock)
//	RecGetters:  u count, then per getter: u id, s package, s receiver,
//	             s method, s file, u line, s field
//	RecFrames:   u pc id, u frames, then per frame: s function, s file,
//	             u line: what one return address stands for, innermost
//	             first (several frames where calls were inlined)
//	RecString:   u id, u original length, s value (capped at MaxValue bytes,
//	             cut at a UTF-8 boundary)
//	RecEvent:    u getter id, u new nodes k, then if k = 0: u back (the
//	             stack is node next-back), else: u back (the new nodes'
//	             parent is node next-back) and k times u pc id (each new
//	             node is its parent plus that frame; the last is the
//	             stack); then u string id, u sequence delta, u time delta
//	kinds 16 to 255 (RecEventDelta and up): an event whose sequence
//	             delta is kind-15, the most common case, with the payload
//	             of RecEvent without its sequence delta
//	RecMark:     u mark kind (1 mark, 2 pause, 3 resume, 4 end), u sequence delta,
//	             u time delta, s label
//	RecPad:      ignored bytes up to the end of the chunk; since version
//	             3, its last TrailerSize bytes are the chunk's
//	             trailer (below) where the pad has room for it. Right
//	             after a RecGetters record, an 8-byte pad is that
//	             table's own check: GettersCheckTag u32, then the
//	             Checksum u32 of the RecGetters payload (older readers
//	             skip it as a pad), so that a reader can trust the table
//	             of a chunk whose other records were damaged: every
//	             shard's events need it
//	RecNote:     s text: why recording stopped ("recording stopped: no
//	             space left on device"), written once, in the room every
//	             chunk keeps for it (logrt's noteRoom); only records being
//	             written in other shards at that moment may follow it
//	RecRepeat:   count u32 (little endian, not a varint, its top bit set:
//	             RepeatFlag, so that the record never ends in a zero
//	             byte, which a trace trimmed of its zeros would lose): the event just
//	             before it in the stream (an event record, or the event
//	             that the repeat records before it repeat) happened count
//	             more times, with the same getter, stack and value, and
//	             nothing else of the stream between (version 4). The
//	             writer raises count in place as the run goes on (a
//	             plain aligned store into the mapped chunk), so a process
//	             killed mid-run leaves every repeat it made counted. The
//	             repeats take the time and the place in the order of the
//	             event they repeat: they come right after it, before any
//	             later record of any stream. A chunk's trailer counts
//	             event records and the entries of batches (below), not
//	             repeats. After a RecBatch, the event repeated is the
//	             batch's last entry.
//	RecBatch:    used u32 (little endian: the payload's bytes after it
//	             that hold the batch), u time delta, then entries, each
//	             one event (version 5, traces ordered by the clock
//	             only). The record is written with room for BatchCap
//	             payload bytes, and its commit word says so while the
//	             batch is open: each entry is written after the last,
//	             then used is raised in place (a release store), so a
//	             process killed mid-batch leaves every entry appended
//	             readable, and the bytes of one being written lie beyond
//	             used, where they are ignored. When the batch ends (the
//	             shard writes any other record, or leaves its chunk),
//	             the commit word is lowered to the bytes used. An entry:
//	               u head = zigzag(node - prev) << 3 | g << 2 | v
//	             node is the event's stack, an existing node of the
//	             shard's call-site tree; prev the node of the stream's
//	             previous event (0 before the first). g = 1: u getter id
//	             follows; g = 0: the getter is that of the stream's
//	             previous event on the same node. v = 0: the value is
//	             that of the stream's previous event on the same node;
//	             v = 1: u string id follows; v = 2: u literal L follows,
//	             an integer value spelled as the writer would have
//	             interned it: L&3 = 0: the decimal of the signed
//	             zigzag(L>>2), 1: the decimal of L>>2, 2: "len " and the
//	             decimal of L>>2, 3: "false" (L>>2 = 0) or "true" (1);
//	             v = 3 (version 7): no bytes follow; the value is the
//	             literal of the previous event on the same node, an
//	             integer (L&3 = 0, 1 or 2), plus one (a loop's index).
//	             Every entry takes the batch's time
//	             and the next sequence number of the stream.
//
// Frames, strings and call-site tree nodes belong to the shard that
// defines them: ids count up from 1 in each shard's stream, and each is
// defined in the stream before the first event that uses it.
//
// Order: every event and mark carries a sequence number (the delta from
// the previous one of its stream; they rise within a stream), and the
// trace has one of two orders, which every chunk record states (u order:
// 0 counter, 1 clock):
//
//   - by the counter: the numbers come from one atomic counter of the
//     process, and the reader merges the streams by them, which restores
//     the order in which the records were made exactly; numbers may be
//     missing (a record that was given one but not written). Pausing and
//     resuming change a bit of the same counter in the same atomic step
//     as they take their marks' numbers, so an event is recorded exactly
//     when its number falls outside every pause.
//   - by the clock, where the monotonic clock is fine-grained (two
//     readings in a row always differ, so one core cannot learn what
//     another did between two readings that give the same time): each
//     stream counts on its own, and the reader merges the streams by time.
//     Events then share no cache line that they write, which is what lets
//     goroutines on several cores record at full speed. The pause bit
//     stays in the counter word, which only pauses and resumes change; an
//     event is recorded only if that word did not change while it read the
//     clock, and a pause reads the clock after its change, a resume
//     before, so no event's time falls inside a pause. At the same time, a
//     resume comes before events, and events before pauses and marks.
//
// SUNCAT_ORDER=counter chooses the counter where the clock would do.
//
// Batches (version 5), ordered by the clock: a batch holds events of one
// goroutine in one shard, in known contexts (their nodes already in the
// tree), recorded one after the other; the writer reads the clock once,
// when it opens the batch. An event joins the shard's open batch only if
// the batch is the shard's last record, the event's goroutine is the
// batch's and recorded its last event in this shard (logrt's owns, by
// the address of the goroutine's first frame, set before the batch read
// the clock), no mark, pause, resume or label began since the batch read
// the clock (writer.marks unchanged, and writer.seq unchanged with its
// pause bit clear, both loaded again for each entry), and the batch has
// room (MaxBatch entries, BatchCap bytes). Anything else opens a new
// batch, which reads the clock. So:
//   - counts are exact: each entry is one event, written before its call
//     returns, and repeats count as before;
//   - stacks are true: an entry names the node that the event's own
//     context proved (logrt/repeat.go), as an event record would;
//   - a goroutine's order holds: its entries are in the order it made
//     them, in one stream, and an event of it in another shard ends its
//     ownership of this shard, so no later entry of it joins a batch
//     older than that event;
//   - marks keep their place: a mark, pause, resume or label raises
//     writer.marks before it reads the clock, so an entry that still saw
//     the batch's count came before it, and the batch's time, read
//     before, is earlier than the mark's; an entry that sees another
//     count opens a new batch, whose clock is read after. No entry falls
//     inside a pause: each joins only while the pause bit is clear and
//     writer.seq is the word the batch started with.
//
// Across goroutines, the order inside a batch's window (from its time to
// its last entry) follows the batch's time: an event of another
// goroutine made in that window is put after all of the batch's
// entries, as if they had been made at the batch's time.
// SUNCAT_BATCH=0 writes every event as a record of its own.
//
// Stacks form a call-site tree (logrt/stack.go): node 0 is the empty stack at
// the root, and node ids count up from 1 in the order events define them;
// next is the id the first new node of the event gets. A node's stack is
// its frames, then its parent's. The pc id 0 marks a stack cut at
// MaxFrames frames (it is the outermost node of such a stack, and has no
// frames).
//
// Version 3 had no RecRepeat: every event was a record of its own.
// Version 2 had one stream (no RecChunk, and no sequence deltas: records
// were in order). Version 1 also had no RecFrames; its stacks were
// interned whole:
//
//	RecStack:    u id, u flags (1: truncated at MaxFrames), u frames, then
//	             per frame: s function, s file, u line. Frame 0 is the
//	             getter; the last frames are the goroutine's entry.
//	RecEvent:    u getter id, u stack id, u string id, u time delta
//
// Time deltas are nanoseconds of the monotonic clock since the previous
// event or mark of the stream (the first since the start time in the
// header); the reader makes the merged times non-decreasing. Frames and
// strings are interned: each is defined once per stream, before the first
// event that uses it, and events refer to it by id. A program with very
// many distinct values stops remembering them after maxInterned (logrt; over all
// shards; 37 to 63 bytes of memory each, logrt/values.go) and writes a new
// definition for each further value, so the writer's memory stays bounded.
const (
	Magic         = "SUNCATTR"
	Version       = 8 // the version the writer writes
	HeaderSize    = 512
	ChunkCountTag = 0xc4a7c5fe // before the chunk count, at OffChunkCount

	// MaxValue is the number of bytes of a string value that a trace
	// keeps. Longer values are cut, and the trace records their original
	// length.
	MaxValue = 1024

	// MaxFrames is the deepest stack recorded; deeper stacks are cut at
	// the outermost end and flagged.
	MaxFrames = 128
)

// Offsets of the header's fields from the file's start (the diagram
// above); the arguments follow the program's name.
const (
	OffVersion    = 8  // u32
	OffHeaderSize = 12 // u32
	OffChunkSize  = 16 // u32
	OffPID        = 20 // u32
	OffStart      = 24 // i64: unix ns
	OffProgram    = 32 // u16 length, then the bytes
	// OffChunkCount is the chunk count's tag (ChunkCountTag), then the
	// chunks handed out (u32).
	OffChunkCount = HeaderSize - 8
)

// Record kinds: the low 8 bits of a record's commit word.
const (
	RecGetters = 1
	RecStack   = 2 // version 1 only
	RecString  = 3
	RecEvent   = 4
	RecMark    = 5
	RecPad     = 6
	RecFrames  = 7
	RecChunk   = 8
	RecNote    = 9  // why recording stopped
	RecRepeat  = 10 // the previous event again, count times (version 4)
	RecBatch   = 11 // events of known contexts at one time (version 5)

	// RepeatSize is the payload size of a RecRepeat record: its count.
	RepeatSize = 4
	// MaxRepeat is the largest count of a RecRepeat record; a longer run
	// goes on in another repeat record after it.
	MaxRepeat = 1 << 16
	// RepeatFlag is set in every count word of a RecRepeat record.
	RepeatFlag = 1 << 31

	// BatchCap is the payload room a RecBatch record is written with,
	// MaxBatch the most entries it holds.
	BatchCap = 1020
	MaxBatch = 255

	// Literal formats of batch entries (RecBatch: L&3).
	LitInt  = 0
	LitUint = 1
	LitLen  = 2
	LitBool = 3

	// RecEventDelta + d - 1 is the kind of an event of sequence delta d,
	// for d up to MaxRecDelta (version 3).
	RecEventDelta = 16
	MaxRecDelta   = 256 - RecEventDelta
)

// MarkKind tells a mark from a pause or a resume.
type MarkKind uint8

const (
	KindMark   MarkKind = 1
	KindPause  MarkKind = 2
	KindResume MarkKind = 3
	KindEnd    MarkKind = 4 // the program's main returned, or the span a label began ended (version 8)
)

// The labels of end marks (KindEnd): what ended.
const (
	EndMain = "main" // the program's main returned
	EndSpan = "span" // the span a label began (a test's, a benchmark run's) ended
)

func (k MarkKind) String() string {
	switch k {
	case KindMark:
		return "mark"
	case KindPause:
		return "pause"
	case KindResume:
		return "resume"
	case KindEnd:
		return "end"
	}
	return "unknown"
}

// Getter describes one instrumented getter. The instrumenter passes the
// table once, from generated code: func init() { logrt.SetGetters(table) }.
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

// The trailer of a chunk: when a shard leaves a full chunk, the pad that
// fills it ends with a check of the chunk's records, so that a reader
// finds a region zeroed (a machine that crashed before its page cache
// reached the disk) or bytes changed, and counts the events lost:
//
//	trailer: | pad offset u32 | records u32 | events u32 |
//	         | checksum u32 | TrailerTag u32 |   (the chunk's last 20 bytes)
//
// The pad offset is where the pad record starts, from the chunk's start;
// records counts the records before it (the chunk record included),
// events those that are events; the checksum is Checksum of the chunk's
// bytes from its first record (after the header in chunk 0) to the pad.
// All little endian. The last chunk of each stream, never left, has no
// trailer.
const (
	TrailerSize = 20
	TrailerTag  = 0x4b43_5353 // "SSCK"

	// GettersCheckTag begins the pad that checks the getter table
	// before it (RecPad).
	GettersCheckTag = 0x4b43_5447 // "GTCK"
	GettersCheckLen = 8           // the check pad's payload
)

// Checksum is the checksum of a chunk's records (CRC-32C).
func Checksum(b []byte) uint32 {
	return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
}

// IsEvent reports whether a record of kind is an event.
func IsEvent(kind byte) bool {
	return kind == RecEvent || kind >= RecEventDelta
}
