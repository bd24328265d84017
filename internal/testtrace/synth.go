package testtrace

import (
	"encoding/binary"
	"os"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Synth writes a version 3 trace of one shard in memory, record by
// record, as logrt's writer lays it out (tracefmt's format.go): for
// benchmarks of the readers at sizes no test program reaches quickly (tens
// of thousands of getters or marks, tens of millions of events), without
// building or running a program.
type Synth struct {
	b       []byte
	chunk   int
	chunks  int
	seq     uint64
	getters int
	pcs     map[Frame]uint64
	nodes   map[nodeKey]uint64 // (parent, pc) -> node id
	next    uint64             // the next node's id (node 0 is the root)
	strs    map[string]uint64
	events  int
}

// A Frame is one frame of a synthetic stack.
type Frame struct {
	Func, File string
	Line       int
}

type nodeKey struct{ parent, pc uint64 }

// synthChunk is the chunk size of synthetic traces (logrt's).
const synthChunk = 1 << 20

// NewSynth starts a trace of program.
func NewSynth(program string) *Synth {
	s := &Synth{chunk: synthChunk, pcs: map[Frame]uint64{}, nodes: map[nodeKey]uint64{}, next: 1, strs: map[string]uint64{}}
	h := make([]byte, tracefmt.HeaderSize)
	le := binary.LittleEndian
	copy(h, tracefmt.Magic)
	le.PutUint32(h[8:], 3)
	le.PutUint32(h[12:], tracefmt.HeaderSize)
	le.PutUint32(h[16:], uint32(s.chunk))
	le.PutUint32(h[20:], 1)
	le.PutUint64(h[24:], 1_700_000_000_000_000_000)
	le.PutUint16(h[32:], uint16(len(program)))
	copy(h[34:], program)
	le.PutUint32(h[tracefmt.HeaderSize-8:], tracefmt.ChunkCountTag)
	s.b = h
	s.startChunk()
	return s
}

func (s *Synth) startChunk() {
	s.chunks++
	binary.LittleEndian.PutUint32(s.b[tracefmt.HeaderSize-4:], uint32(s.chunks))
	s.put(tracefmt.RecChunk, []byte{0, 0}) // shard 0, by the counter
}

// record appends a record, padding the chunk and starting the next one
// first if it does not fit with room for a commit word after it.
func (s *Synth) record(kind byte, payload []byte) {
	size := (4 + len(payload) + 3) &^ 3
	end := (len(s.b)/s.chunk + 1) * s.chunk
	if len(s.b)+size+4 > end {
		if size+4+64 > s.chunk {
			panic("testtrace: record larger than a chunk")
		}
		s.put(tracefmt.RecPad, make([]byte, end-len(s.b)-4))
		s.startChunk()
	}
	s.put(kind, payload)
}

func (s *Synth) put(kind byte, payload []byte) {
	var w [4]byte
	binary.LittleEndian.PutUint32(w[:], uint32(kind)|uint32(len(payload))<<8)
	s.b = append(s.b, w[:]...)
	s.b = append(s.b, payload...)
	for len(s.b)%4 != 0 {
		s.b = append(s.b, 0)
	}
}

func appendString(b []byte, v string) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// Getters adds n getters to the table, ids following those added
// before, each in a record of its own when one (as a table written in
// pieces); it returns the first new id. Getter i is p.T.Mi, reading
// field Fi.
func (s *Synth) Getters(n int, one bool) uint32 {
	first := s.getters + 1
	var p []byte
	count := 0
	flush := func() {
		if count > 0 {
			s.record(tracefmt.RecGetters, append(binary.AppendUvarint(nil, uint64(count)), p...))
		}
		p, count = p[:0], 0
	}
	for i := 0; i < n; i++ {
		s.getters++
		id := s.getters
		p = binary.AppendUvarint(p, uint64(id))
		p = appendString(p, "example.com/p")
		p = appendString(p, "T")
		p = appendString(p, "M"+itoa(id))
		p = appendString(p, "/src/p/t.go")
		p = binary.AppendUvarint(p, uint64(id))
		p = appendString(p, "F"+itoa(id))
		count++
		if one || len(p) > s.chunk/8 {
			flush()
		}
	}
	flush()
	return uint32(first)
}

// Getter adds one getter to the table, in a record of its own, with the
// next id, which it returns: method of p.T in example.com/p returning
// (or, with tracefmt.ReadPrefix, reading) field. Traces that add the
// same getters in different orders number them differently, as two
// builds of a program may.
func (s *Synth) Getter(method, field string) uint32 {
	s.getters++
	id := s.getters
	p := binary.AppendUvarint(nil, 1)
	p = binary.AppendUvarint(p, uint64(id))
	p = appendString(p, "example.com/p")
	p = appendString(p, "T")
	p = appendString(p, method)
	p = appendString(p, "/src/p/t.go")
	p = binary.AppendUvarint(p, uint64(id))
	p = appendString(p, field)
	s.record(tracefmt.RecGetters, p)
	return uint32(id)
}

// Event adds a call of getter returning value on stack (innermost frame
// first), dt nanoseconds after the previous event or mark.
func (s *Synth) Event(getter uint32, stack []Frame, value string, dt uint64) {
	var newPCs []uint64
	node := uint64(0)
	for i := len(stack) - 1; i >= 0; i-- {
		pc := s.pc(stack[i])
		k := nodeKey{node, pc}
		if id, ok := s.nodes[k]; ok && len(newPCs) == 0 {
			node = id
			continue
		}
		newPCs = append(newPCs, pc)
	}
	p := binary.AppendUvarint(nil, uint64(getter))
	p = binary.AppendUvarint(p, uint64(len(newPCs)))
	p = binary.AppendUvarint(p, s.next-node) // back: from the next node's id
	parent := node
	for _, pc := range newPCs {
		p = binary.AppendUvarint(p, pc)
		s.nodes[nodeKey{parent, pc}] = s.next
		parent = s.next
		s.next++
	}
	p = binary.AppendUvarint(p, s.str(value))
	p = binary.AppendUvarint(p, 1) // sequence delta
	p = binary.AppendUvarint(p, dt)
	s.record(tracefmt.RecEvent, p)
	s.events++
}

// Mark adds a mark labelled label, dt nanoseconds after the previous
// event or mark.
func (s *Synth) Mark(label string, dt uint64) {
	p := binary.AppendUvarint(nil, uint64(tracefmt.KindMark))
	p = binary.AppendUvarint(p, 1)
	p = binary.AppendUvarint(p, dt)
	s.record(tracefmt.RecMark, appendString(p, label))
}

// pc returns the id of frame f, defining it the first time.
func (s *Synth) pc(f Frame) uint64 {
	return intern(s.pcs, f, func(id uint64) {
		p := binary.AppendUvarint(nil, id)
		p = binary.AppendUvarint(p, 1)
		p = appendString(p, f.Func)
		p = appendString(p, f.File)
		s.record(tracefmt.RecFrames, binary.AppendUvarint(p, uint64(f.Line)))
	})
}

// str returns the id of string v, defining it the first time.
func (s *Synth) str(v string) uint64 {
	return intern(s.strs, v, func(id uint64) {
		p := binary.AppendUvarint(nil, id)
		p = binary.AppendUvarint(p, uint64(len(v)))
		s.record(tracefmt.RecString, appendString(p, v))
	})
}

// intern returns the id of k in ids; the first time, it gives k the next
// id (from 1) and calls define with it, which writes k's record.
func intern[K comparable](ids map[K]uint64, k K, define func(id uint64)) uint64 {
	if id, ok := ids[k]; ok {
		return id
	}
	id := uint64(len(ids) + 1)
	ids[k] = id
	define(id)
	return id
}

func (s *Synth) Events() int { return s.events }

// Bytes returns the trace: its records, then zeros to the end of the
// last chunk (a whole trace ends with a zero commit word).
func (s *Synth) Bytes() []byte {
	end := (len(s.b)/s.chunk + 1) * s.chunk
	return append(s.b[:len(s.b):len(s.b)], make([]byte, end-len(s.b))...)
}

// WriteFile writes the trace to path.
func (s *Synth) WriteFile(path string) error { return os.WriteFile(path, s.Bytes(), 0o644) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}
