package tracefile

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The reader reads only the data a trace file has: the header, and each
// chunk's bytes from its start to its last byte that is not zero (a
// writer fills a chunk from its start; the rest is zeros, often a hole of
// a sparse file, never read). Loading a file notes where each chunk's
// data ends and keeps none of it; decoding reads a chunk's data when a
// shard's stream enters the chunk, into that stream's one buffer, which
// the next chunk reuses. Memory is so bounded by the chunks in flight
// (one a shard), not by the file's size.

// headRead is how much of a file's start is read for its header,
// whatever the header's size.
const headRead = 64 << 10

// maxChunk bounds the chunk size a header may state (writers use 1 MiB):
// the reader keeps a chunk's worth of scratch space.
const maxChunk = 16 << 20

// An image is the data of a trace file that the decoder reads.
type image struct {
	size   int         // the file's length
	head   []byte      // its first min(size, headRead) bytes
	chunk  int         // the chunk size, if the header states a valid one
	chunks []chunkData // the chunks that hold data, in file order
	held   int         // bytes of data in chunks
	found  bool        // chunks has been filled in: the chunks are found when the file is first decoded
	more   bool        // the bytes read for head hold a non-zero byte after the header (HoldsRecords)
	path   string      // the file loaded, "" for data in memory
	fi     os.FileInfo // its identity
	f      io.ReaderAt // the file, open while decoding, where chunks' data is read from
	err    error       // the first error reading f while decoding
}

// open opens the file of an image that loadHead read, for a decoding to
// read its chunks' data from, and finds its chunks the first time; done
// closes it again. The file at the path must still be the one loaded.
func (img *image) open() (done func(), err error) {
	if img.path == "" || img.chunk == 0 {
		return func() {}, nil
	}
	f, fi, err := openRegular(img.path)
	if err != nil {
		return nil, err
	}
	if !os.SameFile(fi, img.fi) {
		f.Close()
		return nil, fmt.Errorf("%s: replaced by another file since it was loaded", img.path)
	}
	if !img.found {
		if err := img.find(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	img.f = f
	return func() { f.Close(); img.f = nil }, nil
}

// chunkData is one chunk's data.
type chunkData struct {
	index int
	n     int    // its data's length: from its start to its last non-zero byte before any hole, rounded up to 4 bytes
	b     []byte // the data, if in memory (imageOf); nil: read from the file when a cursor needs it
	more  bool   // a non-zero byte follows the data in the chunk, after zeros
}

// sizes returns the header size and chunk size that a header states, and
// whether they are valid; the decoder's header says what is wrong.
func sizes(head []byte) (hs, cs int, ok bool) {
	if len(head) < 20 || string(head[:8]) != tracefmt.Magic {
		return 0, 0, false
	}
	le := binary.LittleEndian
	hs, cs = int(le.Uint32(head[tracefmt.OffHeaderSize:])), int(le.Uint32(head[tracefmt.OffChunkSize:]))
	if hs < 36 || hs > headRead || cs < hs+8 || cs%4 != 0 || hs%4 != 0 || cs > maxChunk {
		return hs, cs, false
	}
	return hs, cs, true
}

// trimmed returns the length of b up to its last non-zero byte, rounded
// up to 4 bytes (at most len(b)).
func trimmed(b []byte) int {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	n = (n + 3) &^ 3
	if n > len(b) {
		n = len(b)
	}
	return n
}

// imageOf makes the image of a trace held in memory; its chunks are
// slices of data.
func imageOf(data []byte) *image {
	img := &image{size: len(data), head: data, found: true}
	if len(img.head) > headRead {
		img.head = img.head[:headRead]
	}
	_, cs, ok := sizes(img.head)
	if !ok {
		return img
	}
	img.chunk = cs
	for i := 0; i*cs < len(data); i++ {
		end := (i + 1) * cs
		if end > len(data) {
			end = len(data)
		}
		b := data[i*cs : end]
		if n := trimmed(b); n > 0 {
			img.chunks = append(img.chunks, chunkData{index: i, n: n, b: b[:n]})
			img.held += n
		}
	}
	return img
}

// openRegular opens path for reading if it is a regular file: a FIFO
// would block, and a device such as /dev/zero never ends.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file (%s)", path, kindOf(fi.Mode()))
	}
	f, err := openNonblock(path)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s: not a regular file (%s)", path, kindOf(fi.Mode()))
		}
		return nil, nil, err
	}
	return f, fi, nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// loadHead reads the header of the trace file at path: its first bytes
// (headRead, whatever the header's size), in one read, of which the
// image keeps the header. The chunks are found when the file is first
// decoded (find).
func loadHead(path string) (*image, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if int64(int(fi.Size())) != fi.Size() {
		return nil, fmt.Errorf("%s: too large (%d bytes)", path, fi.Size())
	}
	img := &image{size: int(fi.Size()), path: path, fi: fi}
	head := make([]byte, min(img.size, headRead))
	if _, err := f.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, err
	}
	img.head = head
	hs, cs, ok := sizes(head)
	switch {
	case ok && len(head) >= hs:
		img.chunk = cs
		img.head = head[:hs:hs] // what follows is read again with its chunk
		img.more = !allZero(head[hs:])
	case ok:
		img.chunk = cs // cut inside the header: the decoding says so
	case len(head) >= 8 && string(head[:8]) == tracefmt.Magic:
		img.more = true // a bad header: the decoding says what is wrong
	default:
		img.more = !allZero(head)
	}
	return img, nil
}

// find finds the chunks of the file f that the image was loaded from,
// reading it chunk by chunk and skipping the holes of a sparse file
// where the system tells them.
func (img *image) find(f *os.File) error {
	cs := img.chunk
	l := &loader{f: f, img: img, scratch: make([]byte, min(cs, 64<<10)), cur: -1}
	for _, e := range dataExtents(f, int64(img.size)) {
		for s := int(e[0]); s < int(e[1]); {
			end := (s/cs + 1) * cs
			if end > int(e[1]) {
				end = int(e[1])
			}
			if err := l.segment(s, end); err != nil {
				return err
			}
			s = end
		}
	}
	l.finish()
	img.found = true
	return nil
}

// A loader gathers the chunks of a file from its data segments, in file
// order.
type loader struct {
	f       *os.File
	img     *image
	scratch []byte
	cur     int       // the chunk being gathered, -1 if none
	c       chunkData // its data so far
}

// segment adds the data between off and end, within one chunk, read a
// piece of scratch space at a time.
func (l *loader) segment(off, end int) error {
	cs := l.img.chunk
	i := off / cs
	if i != l.cur {
		l.finish()
		l.cur, l.c = i, chunkData{index: i}
	}
	start := off == i*cs // the chunk's start: its records
	for p := off; p < end && !l.c.more; {
		buf := l.scratch[:min(end-p, len(l.scratch))]
		n, err := l.f.ReadAt(buf, int64(p))
		if err != nil && err != io.EOF {
			return err
		}
		clear(buf[n:])
		if start {
			if k := trimmed(buf); k > 0 {
				l.c.n = p - off + k // pieces start at multiples of 4
			}
		} else if !allZero(buf) {
			l.c.more = true // data after a hole
		}
		p += len(buf)
	}
	return nil
}

func (l *loader) finish() {
	if l.cur >= 0 && (l.c.n > 0 || l.c.more) {
		l.img.chunks = append(l.img.chunks, l.c)
		l.img.held += l.c.n
	}
	l.cur = -1
}

// A cursor finds the chunk of a file offset; it remembers the last one
// found, as decoding goes through a chunk at a time. Data of a chunk that
// is in the file is read into the cursor's buffer when the cursor enters
// the chunk, and replaced when it enters another: a slice that bytes
// returns is valid until the cursor moves to another chunk.
type cursor struct {
	img  *image
	i    int
	peek bool   // read only the bytes asked for, not the whole chunk
	at   int    // 1 + the index in img.chunks of the chunk whose data buf holds, 0 if none
	buf  []byte // that chunk's data
}

// find returns the data of the chunk that holds off, nil if it holds
// none.
func (c *cursor) find(off int) *chunkData {
	img := c.img
	if img.chunk == 0 {
		return nil
	}
	idx := off / img.chunk
	if c.i < len(img.chunks) && img.chunks[c.i].index == idx {
		return &img.chunks[c.i]
	}
	lo, hi := 0, len(img.chunks)
	for lo < hi {
		m := (lo + hi) / 2
		if img.chunks[m].index < idx {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(img.chunks) && img.chunks[lo].index == idx {
		c.i = lo
		return &img.chunks[lo]
	}
	return nil
}

// data returns the data of the chunk found last (ch), reading it from the
// file if it is not in memory or in the cursor's buffer.
func (c *cursor) data(ch *chunkData) []byte {
	if ch.b != nil || ch.n == 0 || c.img.f == nil {
		return ch.b
	}
	if c.at == c.i+1 {
		return c.buf
	}
	if cap(c.buf) < ch.n {
		c.buf = make([]byte, ch.n)
	}
	c.buf = c.buf[:ch.n]
	c.readAt(c.buf, ch.index*c.img.chunk)
	c.at = c.i + 1
	return c.buf
}

// readAt fills b from the file at off; what cannot be read is zeros, and
// the error is kept in the image for the decoder to return.
func (c *cursor) readAt(b []byte, off int) {
	n, err := c.img.f.ReadAt(b, int64(off))
	if err != nil && err != io.EOF && c.img.err == nil {
		c.img.err = err
	}
	for i := n; i < len(b); i++ {
		b[i] = 0
	}
}

// drop lets go of the cursor's buffer.
func (c *cursor) drop() {
	c.buf, c.at = nil, 0
}

// word returns the 4 bytes at off (in one chunk) as a little-endian
// word.
func (c *cursor) word(off int) uint32 {
	var w [4]byte
	copy(w[:], c.bytes(off, off+4))
	return binary.LittleEndian.Uint32(w[:])
}

// bytes returns the bytes from off to end, which lie in one chunk; the
// zeros past a chunk's data are made when asked for.
func (c *cursor) bytes(off, end int) []byte {
	ch := c.find(off)
	if ch == nil {
		return make([]byte, end-off)
	}
	rel := off - ch.index*c.img.chunk
	if c.peek && ch.b == nil && c.at != c.i+1 && c.img.f != nil {
		out := make([]byte, end-off)
		if rel < ch.n {
			k := ch.n - rel
			if k > len(out) {
				k = len(out)
			}
			c.readAt(out[:k], off)
		}
		return out
	}
	b := c.data(ch)
	if rel+(end-off) <= len(b) {
		return b[rel : rel+end-off]
	}
	out := make([]byte, end-off)
	if rel < len(b) {
		copy(out, b[rel:])
	}
	return out
}

// zeroFrom reports whether the bytes from off to the end of its chunk are
// all zero.
func (c *cursor) zeroFrom(off int) bool {
	ch := c.find(off)
	if ch == nil {
		return true
	}
	rel := off - ch.index*c.img.chunk
	if rel < ch.n && !allZero(c.bytes(off, off+ch.n-rel)) {
		return false
	}
	return !ch.more
}

// HoldsRecords reports whether the file holds anything after its
// header: false for an empty file, a file of zeros (a program that died
// while opening it) and a trace of only a header (one that recorded
// nothing). A file that is not a trace holds records, for its decoding
// to say what it is. Past the bytes Load read, it reads the file only up
// to its first byte that is not zero.
func (f *File) HoldsRecords() (bool, error) {
	img := f.img
	if img.more || img.size <= headRead {
		return img.more, nil
	}
	r, fi, err := openRegular(img.path)
	if err != nil {
		return false, err
	}
	defer r.Close()
	if !os.SameFile(fi, img.fi) {
		return false, fmt.Errorf("%s: replaced by another file since it was loaded", img.path)
	}
	buf := make([]byte, 64<<10)
	for _, e := range dataExtents(r, fi.Size()) {
		for off := max(e[0], int64(headRead)); off < e[1]; {
			k := int(min(int64(len(buf)), e[1]-off))
			if _, err := r.ReadAt(buf[:k], off); err != nil && err != io.EOF {
				return false, err
			}
			if !allZero(buf[:k]) {
				return true, nil
			}
			off += int64(k)
		}
	}
	return false, nil
}
