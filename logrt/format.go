package logrt

import "github.com/suncat-go/suncat/logrt/tracefmt"

// The trace format is defined in package tracefmt, which the reader
// shares; these are the writer's names for its definitions, and the
// writer's own sizes.
const (
	magic         = tracefmt.Magic
	formatVersion = tracefmt.Version
	headerSize    = tracefmt.HeaderSize
	chunkCountTag = tracefmt.ChunkCountTag

	chunkSize      = 1 << 20
	maxProgramName = 256

	// MaxValue is the number of bytes of a string value that a trace
	// keeps.
	MaxValue = tracefmt.MaxValue

	// maxFrames is the deepest stack recorded; deeper stacks are cut at
	// the outermost end and flagged.
	maxFrames = tracefmt.MaxFrames

	// maxInterned bounds the values that the shards' dictionaries
	// remember (values.go).
	maxInterned = 1 << 19
)

const (
	kindGetters    = tracefmt.RecGetters
	kindStack      = tracefmt.RecStack
	kindString     = tracefmt.RecString
	kindEvent      = tracefmt.RecEvent
	kindMark       = tracefmt.RecMark
	kindPad        = tracefmt.RecPad
	kindFrames     = tracefmt.RecFrames
	kindChunk      = tracefmt.RecChunk
	kindNote       = tracefmt.RecNote
	kindRepeat     = tracefmt.RecRepeat
	kindBatch      = tracefmt.RecBatch
	kindEventDelta = tracefmt.RecEventDelta
	maxKindDelta   = tracefmt.MaxRecDelta
)

// MarkKind tells a mark from a pause or a resume.
type MarkKind = tracefmt.MarkKind

const (
	KindMark   = tracefmt.KindMark
	KindPause  = tracefmt.KindPause
	KindResume = tracefmt.KindResume
	KindEnd    = tracefmt.KindEnd
)

// Getter describes one instrumented getter (tracefmt.Getter).
type Getter = tracefmt.Getter

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
