package tracefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Trace is a decoded trace file.
type Trace struct {
	Path    string
	Program string
	PID     int
	Start   time.Time
	Args    []string // the program's arguments (os.Args[1:]), as many as the header holds
	Getters []Getter // by ID - 1; IDs missing from the table are zero
	Stacks  []Stack  // by ID - 1
	Events  []Event  // in the order they were recorded
	Marks   []Marker // marks, pauses and resumes, in order
	Strings int      // string definitions in the file (interning shows here)
	// Torn reports that a record was being written when the process
	// died; it was skipped. Every record before it is intact.
	Torn bool
	// Cut reports that the file ends before the trace does (truncated,
	// or copied while being written): all it holds was read, the rest is
	// missing. A whole trace file is a whole number of chunks and ends
	// with a zero commit word.
	Cut bool
	// Damage, if not nil, is the first damaged record: the records
	// before it were read, none from it on.
	Damage error
	// EventsRead counts the events decoded (also those handed to
	// DecodeFunc's callback).
	EventsRead int
	// ByClock reports that the trace (version 3) is ordered by the
	// monotonic clock rather than by a sequence counter (format.go).
	ByClock bool
	// Chunks is the number of chunks the writer had begun, as the header
	// says (0 if it does not), and ChunksInFile the number the file
	// holds, whole or in part.
	Chunks, ChunksInFile int
	// CutShards lists the shards whose records end where the file is
	// cut (version 3): their later events are missing, while other
	// shards' may be read to their end.
	CutShards []int
	// Losses lists the chunks that lost records, as their checks or
	// their shards' chunks tell (version 3), with the events lost.
	Losses []Loss
	// Stopped is the program's note of why it stopped recording
	// ("recording stopped: no space left on device"), or "".
	Stopped string
}

// Problem says in one line what is missing from the trace, "" if
// nothing: a torn last record, a cut file, or a damaged record.
func (t *Trace) Problem() string {
	if t.Damage != nil {
		return fmt.Sprintf("damaged (%v): the %d events before it were read, the rest is skipped", t.Damage, t.EventsRead)
	}
	var parts []string
	if len(t.Losses) > 0 {
		var ls []string
		for _, l := range t.Losses {
			ls = append(ls, l.String())
		}
		parts = append(parts, "damaged: "+strings.Join(ls, "; "))
	}
	if t.Cut {
		var missing []string
		if t.Chunks > t.ChunksInFile {
			missing = append(missing, fmt.Sprintf("%d of %d chunks missing", t.Chunks-t.ChunksInFile, t.Chunks))
		}
		if len(t.CutShards) > 0 {
			var ids []string
			for _, id := range t.CutShards {
				ids = append(ids, strconv.Itoa(id))
			}
			missing = append(missing, "the records of shard "+strings.Join(ids, ", ")+" end at the cut, the other shards' are read to their end")
		}
		m := ""
		if len(missing) > 0 {
			m = " (" + strings.Join(missing, "; ") + ")"
		}
		parts = append(parts, fmt.Sprintf("the file is cut short (truncated, or copied while being written): %d events read, the rest is missing%s", t.EventsRead, m))
	}
	if t.Torn && len(parts) == 0 {
		return "the last record was being written when the program died; it was skipped"
	}
	if t.Stopped != "" {
		stop := fmt.Sprintf("%s after %d events", t.Stopped, t.EventsRead)
		if len(parts) == 0 {
			return stop
		}
		return strings.Join(append(parts, stop), "; ")
	}
	if len(parts) == 0 {
		return ""
	}
	if t.Cut {
		return strings.Join(parts, "; ") // the cut says what was read
	}
	return fmt.Sprintf("%s; %d events read", strings.Join(parts, "; "), t.EventsRead)
}

// A Frame is one symbolized frame of a stack.
type Frame struct {
	Func string
	File string
	Line int
}

// A Stack is an interned call stack. Frames[0] is the getter.
type Stack struct {
	ID        uint32
	Frames    []Frame
	Truncated bool   // deeper than the recorded frames
	Entry     string // the goroutine's entry function ("?" if truncated)

	// room is the frame before Frames in their array, with the array's
	// capacity (WithFirst); nil where there is none.
	room []Frame
}

// WithFirst returns first followed by the stack's first n frames (all of
// them if n <= 0 or the stack has fewer): a field read's terminal shows
// the field before the reading function. The stacks of a trace file have
// room for that frame before their frames: the first call takes it, and
// the frames are not copied (a summary of a -reads trace kept a copy of
// every stack's frames this way, half its memory); a call with another
// first than the one there copies them. The slice returned has no room
// to append to in place.
func (s *Stack) WithFirst(first Frame, n int) []Frame {
	fs := s.Frames
	if n > 0 && len(fs) > n {
		fs = fs[:n]
	}
	if s.roomBefore() && (s.room[0] == Frame{} || s.room[0] == first) {
		s.room[0] = first
		return s.room[: 1+len(fs) : 1+len(fs)]
	}
	return append(append(make([]Frame, 0, 1+len(fs)), first), fs...)
}

// roomBefore reports whether room is the frame just before Frames, in
// their array.
func (s *Stack) roomBefore() bool {
	n := len(s.Frames)
	return n > 0 && len(s.room) == 1 && cap(s.room) > n && &s.room[:1+n][1] == &s.Frames[0]
}

// Cut keeps the stack's first n frames (all of them if n <= 0 or it has
// no more), in an array of their own with room before them, so that the
// rest can be collected: a reader that shows n frames (summary -frames
// N) holds no more of the stacks of a recursion of random depth, nearly
// one for each event. A stack cut so is not Truncated: its frames end
// where the reader chose, not where the writer did.
func (s *Stack) Cut(n int) {
	if n <= 0 || len(s.Frames) <= n {
		return
	}
	buf := append(make([]Frame, 1, 1+n), s.Frames[:n]...)
	s.Frames, s.room, s.Truncated = buf[1:], buf[:1], false
}

// UseFrames makes s use the frames of o, equal to its own, and the room
// before them: stacks equal in several traces of one program keep one
// copy of their frames.
func (s *Stack) UseFrames(o *Stack) { s.Frames, s.room = o.Frames, o.room }

// An Event is one recorded getter call.
type Event struct {
	Seq       uint64 // position among events and marks
	Time      int64  // ns since Trace.Start, monotonic
	Getter    uint32
	Stack     uint32
	Value     string
	Len       int  // length of the returned string
	Truncated bool // Value holds only the first MaxValue bytes
	Entry     string
	Goroutine uint64 // 0: goroutine ids are not recorded (Entry is)
}

// A Marker is a sub-trace boundary, a pause or a resume.
type Marker struct {
	Seq   uint64
	Time  int64
	Kind  MarkKind
	Label string
}

// GetterOf returns the getter with the given id, and whether the trace's
// table has it.
func (t *Trace) GetterOf(id uint32) (Getter, bool) {
	if id == 0 || int(id) > len(t.Getters) || t.Getters[id-1].ID == 0 {
		return Getter{}, false
	}
	return t.Getters[id-1], true
}

// StackOf returns the stack with the given id (nil if unknown).
func (t *Trace) StackOf(id uint32) *Stack {
	if id == 0 || int(id) > len(t.Stacks) {
		return nil
	}
	return &t.Stacks[id-1]
}

// A SyntaxError is a problem at a byte offset of a trace file.
type SyntaxError struct {
	File   string
	Offset int64
	Msg    string
	err    error // ErrLimit, or nil
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg)
}

func (e *SyntaxError) Unwrap() error { return e.err }

// ErrLimit is what a SyntaxError wraps when the trace goes past one of
// the reader's limits, which keep its memory proportional to the data
// the file holds. Such a trace is refused, not read in part: no writer
// makes one.
var ErrLimit = errors.New("past the reader's limits")

// The reader's limits. A writer cuts stacks at tracefmt.MaxFrames return
// addresses, each of which stands for one frame, or a few where calls
// were inlined; the frames of all stacks are bounded by the data held,
// since each stack comes from an event of a few bytes.
const (
	maxPCFrames    = 256  // frames that one return address stands for
	maxStackFrames = 2048 // frames of one stack
	framesPerByte  = 16   // frames of all stacks made, per byte of data held,
	freeFrames     = 1 << 18

	// Events that a whole decode (Decode, ReadFile) holds, per byte of
	// data held, and more: each event record takes 8 bytes or more, so
	// only repeats (tracefmt.RecRepeat, up to 8,192 events a byte) reach
	// it. DecodeFunc hands events on and holds none.
	heldEventsPerByte = 4
	freeEvents        = 1 << 16
)

type frameBudget struct{ left int }

// spendFrames takes n frames of a new stack from the budget.
func (d *decoder) spendFrames(at, n int) error {
	if n > maxStackFrames {
		return d.limitf(at, "a stack of %d frames, more than the reader's limit of %d", n, maxStackFrames)
	}
	if d.budget == nil {
		return nil
	}
	if d.budget.left -= n; d.budget.left < 0 {
		return d.limitf(at, "its stacks hold more frames than the reader's limit for %d bytes of data (%d a byte and %d)", d.img.held, framesPerByte, freeFrames)
	}
	return nil
}

func (d *decoder) limitf(off int, format string, args ...interface{}) error {
	return &SyntaxError{File: d.name, Offset: int64(off), Msg: fmt.Sprintf(format, args...), err: ErrLimit}
}

// ReadFile decodes the trace file at path.
func ReadFile(path string) (*Trace, error) {
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	return f.Decode()
}

// A File is a trace file as Load reads it: its header, read once. It
// holds none of the chunks' data: a decoding opens the file again (it
// must be the same file, not one put in its place), finds the chunks
// the first time (where each chunk's data ends; the holes of a sparse
// file are not read) and reads a chunk's data when a shard's stream
// enters the chunk. It can be decoded more than once.
type File struct {
	name string
	img  *image
}

// Load reads the header of the trace file at path, which must be a
// regular file. Header decodes it; the decodings read the rest.
func Load(path string) (*File, error) {
	img, err := loadHead(path)
	if err != nil {
		return nil, err
	}
	return &File{name: path, img: img}, nil
}

// Path is the path the file was loaded from.
func (f *File) Path() string { return f.name }

// Header decodes the header that Load read, reading nothing more: the
// returned Trace has Path, Program, PID, Start and Args (or Torn, for a
// file whose program died before it wrote its header), and the chunk
// counts, and nothing else. Its error is the one a decoding would
// return. A reader of several traces uses it to take them in order of
// start time before decoding any.
func (f *File) Header() (*Trace, error) {
	d := &decoder{name: f.name, img: f.img, t: &Trace{Path: f.name}}
	d.cur.img = f.img
	if err := d.header(); err != nil {
		return nil, err
	}
	return d.t, nil
}

// Size is the file's length.
func (f *File) Size() int64 { return int64(f.img.size) }

// Decode decodes the whole trace.
func (f *File) Decode() (*Trace, error) { return f.DecodeFunc(nil) }

// DecodeFunc is the package's DecodeFunc for the file.
func (f *File) DecodeFunc(fn func(ev *Event, mk *Marker) error) (*Trace, error) {
	return decodeImage(f.name, f.img, fn, nil)
}

// Count decodes the file keeping no event or mark (as DecodeFunc): the
// Trace has the header, the getters and stacks, and EventsRead; marks is
// the number of marks, pauses and resumes.
func (f *File) Count() (tr *Trace, marks int, err error) {
	tr, err = f.DecodeFunc(func(_ *Event, mk *Marker) error {
		if mk != nil {
			marks++
		}
		return nil
	})
	return tr, marks, err
}

// DecodeTraceFunc is DecodeFunc whose fn also gets the trace being
// decoded: its header, and the getters and stacks defined so far (an
// event's getter is always in tr's table by the time fn gets it), so that
// a reader that needs the getters' names learns them in the same pass.
// fn must not keep tr's slices, which grow.
func (f *File) DecodeTraceFunc(fn func(tr *Trace, ev *Event, mk *Marker) error) (*Trace, error) {
	var tr *Trace
	return decodeImage(f.name, f.img, func(ev *Event, mk *Marker) error { return fn(tr, ev, mk) }, &tr)
}

// Decode decodes a whole trace held in data; name is used in errors.
func Decode(name string, data []byte) (*Trace, error) {
	return DecodeFunc(name, data, nil)
}

// DecodeFunc decodes a trace like Decode, but if fn is not nil it hands
// each event and mark to fn in recording order (exactly one of ev and mk
// is not nil) instead of keeping them: the returned Trace has the header,
// getters and stacks, and no Events or Marks. fn must not keep the
// pointers; an error from fn stops decoding and is returned as is.
func DecodeFunc(name string, data []byte, fn func(ev *Event, mk *Marker) error) (*Trace, error) {
	return decodeImage(name, imageOf(data), fn, nil)
}

// decodeImage decodes img; if decoding is not nil, it is set to the
// Trace being decoded before any record is.
func decodeImage(name string, img *image, fn func(ev *Event, mk *Marker) error, decoding **Trace) (*Trace, error) {
	d := &decoder{name: name, img: img, t: &Trace{Path: name}, fn: fn}
	if decoding != nil {
		*decoding = d.t
	}
	d.cur.img = img
	closeFile, err := img.open() // finds the chunks, the first time
	if err != nil {
		return nil, err
	}
	defer closeFile()
	d.budget = &frameBudget{left: framesPerByte*img.held + freeFrames}
	img.err = nil
	if err := d.header(); err != nil {
		return nil, err
	}
	err = d.records()
	if err != nil && d.fnErr != nil {
		return nil, d.fnErr
	}
	if img.err != nil {
		return nil, img.err // reading the file (the error names it)
	}
	if err != nil {
		if errors.Is(err, ErrLimit) {
			return nil, err
		}
		// Damage in the middle: keep what came before it.
		d.t.Damage = err
	}
	return d.t, nil
}

type decoder struct {
	fn        func(*Event, *Marker) error
	fnErr     error // what fn returned, to tell it from damage
	ev        Event // handed to fn
	name      string
	img       *image // the file's data
	cur       cursor // finds the chunk of an offset in img
	t         *Trace
	chunk     int
	strs      []string // by id - 1
	lens      []int
	version   uint32
	tree      readTree // version 2 and 3 stacks
	now       int64
	seq       uint64
	out       *stream           // version 3: a shard's decoder hands records to its stream
	lastSeq   uint64            // version 3: the sequence number of the stream's last record
	kindDelta uint64            // version 3: the sequence delta of the event's kind, 0 if none
	byClock   bool              // version 3: the trace is ordered by time, not by sequence numbers
	stackID   map[string]uint32 // version 3: stacks by their frames' numbers, shared by all shards
	frameID   map[Frame]uint32  // version 3: the frames' numbers, shared by all shards
	renum     []uint32          // version 3: stacks' numbers in the trace, by the streams' (useStack)
	used      []uint32          // version 3: the streams' numbers of the stacks used, in the trace's order
	budget    *frameBudget      // the frames that stacks may still hold, shared by all shards
	off       int               // start of the payload being decoded, for errors
	pos       int               // read position in the payload (a file offset)
	end       int
	payload   []byte // the payload, from file offset base
	base      int
}

func (d *decoder) errorf(off int, format string, args ...interface{}) error {
	return &SyntaxError{File: d.name, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) header() error {
	data, size := d.img.head, d.img.size
	if size > 0 && allZero(data) && len(d.img.chunks) == 0 {
		// The program died before it wrote its header (older writers
		// mapped the file first): an empty trace, flagged.
		d.t.Torn = true
		d.pos = size
		return nil
	}
	if len(data) < 36 {
		return d.errorf(len(data), "file too short for a trace header (%d bytes)", len(data))
	}
	if string(data[:8]) != tracefmt.Magic {
		return d.errorf(0, "not a suncat trace (bad magic %q)", data[:8])
	}
	le := binary.LittleEndian
	d.version = le.Uint32(data[tracefmt.OffVersion:])
	if d.version < 1 || d.version > tracefmt.Version {
		return d.errorf(tracefmt.OffVersion, "unsupported trace version %d (this suncat reads versions 1 to %d)", d.version, tracefmt.Version)
	}
	hs, cs, ok := sizes(data)
	if !ok {
		return d.errorf(tracefmt.OffHeaderSize, "bad header size %d or chunk size %d", hs, cs)
	}
	d.chunk = cs
	d.t.PID = int(le.Uint32(data[tracefmt.OffPID:]))
	d.t.Start = time.Unix(0, int64(le.Uint64(data[tracefmt.OffStart:])))
	n := int(le.Uint16(data[tracefmt.OffProgram:]))
	name := tracefmt.OffProgram + 2
	if name+n > hs || name+n > len(data) {
		return d.errorf(tracefmt.OffProgram, "program name of %d bytes overflows the header", n)
	}
	d.t.Program = string(data[name : name+n])
	if len(data) >= hs {
		d.t.Args = readArgs(data[name+n : hs])
	}
	if len(data) < hs {
		return d.errorf(len(data), "file ends inside the header")
	}
	// The last chunk handed out begins with a record: a file that ends
	// before it was cut (trailing zeros trimmed off the last chunk are not
	// a cut).
	d.t.ChunksInFile = (size + cs - 1) / cs
	if le.Uint32(data[hs-8:]) == tracefmt.ChunkCountTag {
		n := int(le.Uint32(data[hs-4:]))
		d.t.Chunks = n
		if n > 0 && (n-1)*cs+4 > size {
			d.t.Cut = true
		}
	}
	d.pos = hs
	return nil
}

// readArgs reads the program's arguments that follow its name in the
// header (see putArgs); a header without them (zeros) has none, and what
// does not parse is left out.
func readArgs(h []byte) []string {
	if len(h) < 2 {
		return nil
	}
	count := int(binary.LittleEndian.Uint16(h))
	var args []string
	for off := 2; len(args) < count && off+2 <= len(h); {
		n := int(binary.LittleEndian.Uint16(h[off:]))
		if off+2+n > len(h) {
			break
		}
		args = append(args, string(h[off+2:off+2+n]))
		off += 2 + n
	}
	return args
}

// cutInWord reports whether the file ends inside the commit word at off,
// of which it holds bytes that are not all zero: a record follows, cut
// short. (Zeros there may be the zero word that ends a stream, or its
// part left by trimming the trace's trailing zeros: not a cut.)
func (d *decoder) cutInWord(off int) bool {
	return off < d.img.size && !allZero(d.cur.bytes(off, d.img.size))
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func (d *decoder) records() error {
	if d.version >= 3 {
		return d.merge()
	}
	off := d.pos
	for {
		if off+4 > d.img.size {
			// No zero commit word. The writer's file is a whole number
			// of chunks and always has one (it maps the next chunk when a
			// record fills one), so a file that ends at a chunk boundary
			// was cut there. One that ends elsewhere after a whole record
			// is taken as whole (a trace trimmed of its zeros).
			d.t.Cut = d.chunk > 0 && off > d.pos && d.img.size%d.chunk == 0 || d.cutInWord(off)
			return nil
		}
		word := d.cur.word(off)
		if word == 0 {
			// The end of the trace, or a torn record: anything non-zero
			// after it is the part of a record written before death.
			if !d.cur.zeroFrom(off + 4) {
				d.t.Torn = true
			}
			return nil
		}
		kind, n := byte(word), int(word>>8)
		size := (4 + n + 3) &^ 3
		if off+4+n > d.img.size && (off+size-1)/d.chunk == off/d.chunk {
			// The file was cut (copied while being written, or
			// truncated) inside this record.
			d.t.Cut = true
			return nil
		}
		if off+size > (off/d.chunk+1)*d.chunk {
			return d.errorf(off, "record of %d bytes crosses a chunk boundary", n)
		}
		if err := d.record(kind, off, n); err != nil {
			return err
		}
		off += size
	}
}

// record decodes the record of kind whose payload of n bytes follows the
// commit word at off.
func (d *decoder) record(kind byte, off, n int) error {
	d.off, d.pos, d.end, d.base = off+4, off+4, off+4+n, off+4
	d.payload = d.cur.bytes(off+4, off+4+n)
	var err error
	switch {
	case kind >= tracefmt.RecEventDelta && d.version >= 3:
		d.kindDelta = uint64(kind) - tracefmt.RecEventDelta + 1
		err = d.event()
		d.kindDelta = 0
	default:
		err = d.plainRecord(kind, off)
	}
	if err != nil {
		return err
	}
	if d.pos != d.end {
		return d.errorf(d.pos, "%d unexpected bytes at the end of a record", d.end-d.pos)
	}
	return nil
}

// plainRecord decodes a record whose kind is only its kind.
func (d *decoder) plainRecord(kind byte, off int) error {
	var err error
	switch kind {
	case tracefmt.RecGetters:
		err = d.getters()
	case tracefmt.RecStack:
		err = d.stack()
	case tracefmt.RecFrames:
		err = d.frames()
	case tracefmt.RecString:
		err = d.str()
	case tracefmt.RecEvent:
		err = d.event()
	case tracefmt.RecMark:
		err = d.mark()
	case tracefmt.RecChunk:
		err = d.chunkRecord()
	case tracefmt.RecPad:
		d.pos = d.end
	case tracefmt.RecNote:
		d.t.Stopped, err = d.string("note")
	case tracefmt.RecRepeat:
		err = d.repeat()
	case tracefmt.RecBatch:
		err = d.batch()
	default:
		return d.errorf(off, "unknown record kind %d", kind)
	}
	return err
}

func (d *decoder) chunkEnd(off int) int {
	e := (off/d.chunk + 1) * d.chunk
	if e > d.img.size {
		e = d.img.size
	}
	return e
}

func (d *decoder) uvarint(what string) (uint64, error) {
	v, n := binary.Uvarint(d.payload[d.pos-d.base : d.end-d.base])
	if n <= 0 {
		return 0, d.errorf(d.pos, "bad or truncated varint (%s)", what)
	}
	d.pos += n
	return v, nil
}

func (d *decoder) int(what string, max uint64) (int, error) {
	v, err := d.uvarint(what)
	if err != nil {
		return 0, err
	}
	if v > max {
		return 0, d.errorf(d.pos, "%s %d out of range", what, v)
	}
	return int(v), nil
}

func (d *decoder) string(what string) (string, error) {
	at := d.pos
	n, err := d.uvarint(what + " length")
	if err != nil {
		return "", err
	}
	if n > uint64(d.end-d.pos) {
		return "", d.errorf(at, "%s of %d bytes overflows its record", what, n)
	}
	s := string(d.payload[d.pos-d.base : d.pos-d.base+int(n)])
	d.pos += int(n)
	return s, nil
}

func (d *decoder) getters() error {
	count, err := d.int("getter count", uint64(d.end-d.pos))
	if err != nil {
		return err
	}
	for i := 0; i < count; i++ {
		at := d.pos
		var g Getter
		id, err := d.int("getter id", 1<<31)
		if err != nil {
			return err
		}
		if id == 0 {
			return d.errorf(at, "getter id 0")
		}
		g.ID = uint32(id)
		if g.Package, err = d.string("getter package"); err != nil {
			return err
		}
		if g.Receiver, err = d.string("getter receiver"); err != nil {
			return err
		}
		if g.Method, err = d.string("getter method"); err != nil {
			return err
		}
		if g.File, err = d.string("getter file"); err != nil {
			return err
		}
		if g.Line, err = d.int("getter line", 1<<31); err != nil {
			return err
		}
		if g.Field, err = d.string("getter field"); err != nil {
			return err
		}
		if id > len(d.t.Getters) {
			// Ids are dense, and each getter takes at least 7 bytes of
			// the file: a larger id is corrupt (and must not make the
			// reader allocate a huge table).
			if id > d.img.held/7+64 {
				return d.errorf(at, "getter id %d out of range for a file of %d bytes", id, d.img.held)
			}
			d.t.Getters = growGetters(d.t.Getters, id)
		}
		d.t.Getters[id-1] = g
	}
	return nil
}

// growGetters returns gs lengthened to n entries, the new ones zero. Its
// capacity at least doubles when it grows, so that a table written a
// getter at a time costs linear time, not quadratic.
func growGetters(gs []Getter, n int) []Getter {
	if n <= cap(gs) {
		old := len(gs)
		gs = gs[:n]
		clear(gs[old:])
		return gs
	}
	c := 2 * cap(gs)
	if c < n {
		c = n
	}
	out := make([]Getter, n, c)
	copy(out, gs)
	return out
}

func (d *decoder) stack() error {
	at := d.pos
	if d.version != 1 {
		return d.errorf(at, "stack record in a version %d trace", d.version)
	}
	id, err := d.int("stack id", 1<<31)
	if err != nil {
		return err
	}
	if id != len(d.t.Stacks)+1 {
		return d.errorf(at, "stack id %d out of sequence (want %d)", id, len(d.t.Stacks)+1)
	}
	flags, err := d.uvarint("stack flags")
	if err != nil {
		return err
	}
	n, err := d.int("frame count", uint64(d.end-d.pos))
	if err != nil {
		return err
	}
	if err := d.spendFrames(at, n); err != nil {
		return err
	}
	s := Stack{ID: uint32(id), Truncated: flags&1 != 0, Frames: make([]Frame, n)}
	for i := range s.Frames {
		f := &s.Frames[i]
		if f.Func, err = d.string("frame function"); err != nil {
			return err
		}
		if f.File, err = d.string("frame file"); err != nil {
			return err
		}
		if f.Line, err = d.int("frame line", 1<<31); err != nil {
			return err
		}
	}
	s.Entry = entryOf(s)
	d.t.Stacks = append(d.t.Stacks, s)
	return nil
}

// entryOf names the function a stack's goroutine started in: the
// outermost frame that is not the runtime's (main.main for the main
// goroutine).
func entryOf(s Stack) string {
	if s.Truncated {
		return "?"
	}
	for i := len(s.Frames) - 1; i >= 0; i-- {
		fn := s.Frames[i].Func
		if !strings.HasPrefix(fn, "runtime.") && fn != "" {
			return fn
		}
	}
	return "?"
}

func (d *decoder) str() error {
	at := d.pos
	id, err := d.int("string id", 1<<31)
	if err != nil {
		return err
	}
	if id != len(d.strs)+1 {
		return d.errorf(at, "string id %d out of sequence (want %d)", id, len(d.strs)+1)
	}
	n, err := d.int("string length", 1<<40)
	if err != nil {
		return err
	}
	s, err := d.string("string value")
	if err != nil {
		return err
	}
	if n < len(s) {
		return d.errorf(at, "string length %d shorter than its %d stored bytes", n, len(s))
	}
	d.strs = append(d.strs, s)
	d.lens = append(d.lens, n)
	d.t.Strings++
	return nil
}

func (d *decoder) delta() error {
	dt, err := d.uvarint("time delta")
	if err != nil {
		return err
	}
	if dt > 1<<62 || d.now+int64(dt) < d.now {
		return d.errorf(d.pos, "time delta %d out of range", dt)
	}
	d.now += int64(dt)
	return nil
}

func (d *decoder) event() error {
	at := d.pos
	g, err := d.int("getter id", 1<<31)
	if err != nil {
		return err
	}
	var s int
	if d.version == 1 {
		s, err = d.int("stack id", 1<<31)
	} else {
		s, err = d.nodes()
	}
	if err != nil {
		return err
	}
	v, err := d.int("string id", 1<<31)
	if err != nil {
		return err
	}
	if err := d.seqDelta(); err != nil {
		return err
	}
	if err := d.delta(); err != nil {
		return err
	}
	if s == 0 || s > len(d.t.Stacks) {
		return d.errorf(at, "event refers to undefined stack %d", s)
	}
	if v == 0 || v > len(d.strs) {
		return d.errorf(at, "event refers to undefined string %d", v)
	}
	if d.version >= 5 {
		d.noteEvent(d.tree.node, uint32(g), v)
	}
	return d.emitEvent(Event{
		Time: d.now, Getter: uint32(g), Stack: uint32(s),
		Value: d.strs[v-1], Len: d.lens[v-1], Truncated: d.lens[v-1] > len(d.strs[v-1]),
		Entry: d.t.Stacks[s-1].Entry,
	})
}

// emitEvent hands e on: to the stream of a version 3 shard, which the
// merge takes it from; else to the callback, or into the Trace, with the
// next sequence number.
func (d *decoder) emitEvent(e Event) error {
	if d.out != nil {
		d.out.ev, d.out.has, d.out.seq, d.out.at = e, hasEvent, d.lastSeq, d.off
		return nil
	}
	if _, ok := d.t.GetterOf(e.Getter); !ok {
		// Ids come from the table the program was built with: another
		// is a changed byte, not an event.
		return d.errorf(d.off, "event of getter %d, which the trace's getter table lacks", e.Getter)
	}
	e.Seq = d.seq
	d.seq++
	d.t.EventsRead++
	if d.fn == nil && d.t.EventsRead > heldEventsPerByte*d.img.held+freeEvents {
		return d.limitf(d.off, "its repeats make more events than the reader holds in memory for %d bytes of data (%d a byte and %d); read it as a stream (DecodeFunc)", d.img.held, heldEventsPerByte, freeEvents)
	}
	if d.fn != nil {
		// One Event for every call (fn must not keep it): a pointer to a
		// fresh one would escape, an allocation per event.
		d.ev = e
		d.fnErr = d.fn(&d.ev, nil)
		return d.fnErr
	}
	d.t.Events = append(d.t.Events, e)
	return nil
}

// emitMark is emitEvent for marks.
func (d *decoder) emitMark(m Marker) error {
	if d.out != nil {
		d.out.mk, d.out.has, d.out.seq = m, hasMark, d.lastSeq
		return nil
	}
	m.Seq = d.seq
	d.seq++
	if d.fn != nil {
		d.fnErr = d.fn(nil, &m)
		return d.fnErr
	}
	d.t.Marks = append(d.t.Marks, m)
	return nil
}

func (d *decoder) mark() error {
	at := d.pos
	k, err := d.int("mark kind", 4)
	if err != nil {
		return err
	}
	if k == 0 {
		return d.errorf(at, "mark kind 0")
	}
	if err := d.seqDelta(); err != nil {
		return err
	}
	if err := d.delta(); err != nil {
		return err
	}
	label, err := d.string("mark label")
	if err != nil {
		return err
	}
	return d.emitMark(Marker{Time: d.now, Kind: MarkKind(k), Label: label})
}

// StackKey is a short hash of the functions and lines of frames, as
// runtime.CallersFrames gives them, for tests that compare a recorded
// stack with runtime.Callers (Stack.Key).
func StackKey(frames interface {
	Next() (runtime.Frame, bool)
}) string {
	h := uint64(14695981039346656037)
	for {
		f, more := frames.Next()
		if f.Function != "" {
			h = keyFrame(h, f.Function, f.Line)
		}
		if !more {
			return strconv.FormatUint(h, 36)
		}
	}
}

// Key is the StackKey of the stack's frames.
func (s *Stack) Key() string {
	h := uint64(14695981039346656037)
	for _, f := range s.Frames {
		h = keyFrame(h, f.Func, f.Line)
	}
	return strconv.FormatUint(h, 36)
}

func keyFrame(h uint64, fn string, line int) uint64 {
	for i := 0; i < len(fn); i++ {
		h = (h ^ uint64(fn[i])) * 1099511628211
	}
	return (h ^ uint64(line)) * 1099511628211
}
