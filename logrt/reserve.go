package logrt

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// The trace never grows past what the disk has room for, nor past a size
// cap: the space of each chunk is reserved (reserveSpace) before the chunk
// is mapped, and when it cannot be, or the cap is reached, recording stops
// for good with one line on standard error and a note in the trace
// (kindNote); the program goes on. The chunks already mapped are
// reserved, so every record still being written in them lands.

// MaxSizeEnv is the environment variable that caps a trace's size: bytes,
// or a number with a suffix K, M, G or T (powers of 1024; "512M", "2G");
// 0 for no cap. The default is DefaultMaxSize.
const MaxSizeEnv = "SUNCAT_MAX_SIZE"

// DefaultMaxSize is the size cap of a trace when SUNCAT_MAX_SIZE is not set.
const DefaultMaxSize = 1 << 30

// maxSize is the size cap of this process's trace in bytes (0: none), or
// -1 when SUNCAT_MAX_SIZE does not parse (reported when the trace opens).
var maxSize = sizeFromEnv()

func sizeFromEnv() int64 {
	// A size that does not parse is reported when the trace opens, and
	// the default is used.
	v, ok := os.LookupEnv(MaxSizeEnv)
	if !ok {
		return DefaultMaxSize
	}
	n, err := ParseSize(v)
	if err != nil {
		return -1
	}
	return n
}

// ParseSize parses a size: bytes, or a number with a suffix K, M, G or T
// (powers of 1024, an optional "iB" or "B" after it: "512M", "2GiB").
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	u := strings.ToUpper(t)
	u = strings.TrimSuffix(strings.TrimSuffix(u, "B"), "I")
	shift := uint(0)
	if u != "" {
		switch u[len(u)-1] {
		case 'K':
			shift = 10
		case 'M':
			shift = 20
		case 'G':
			shift = 30
		case 'T':
			shift = 40
		}
		if shift > 0 {
			u = u[:len(u)-1]
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(u), 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%s=%q: not a size (bytes, or a number with K, M, G or T)", MaxSizeEnv, s)
	}
	return n << shift, nil
}

// errFull is the error of a trace that reached its size cap.
var errFull = errors.New("the trace reached its size cap")

// reserveHook, when set (by tests), is called instead of reserveSpace.
var reserveHook func(f *os.File, off, n int64) error

// reserveChunk reserves the space of chunk i of the file, within the
// size cap.
func (w *writer) reserveChunk(i int) error {
	end := int64(i+1) * chunkSize
	if maxSize > 0 && end > maxSize {
		return fmt.Errorf("%w %s=%s", errFull, MaxSizeEnv, sizeString(maxSize))
	}
	reserve := reserveSpace
	if reserveHook != nil {
		reserve = reserveHook
	}
	err := reserve(w.f, int64(i)*chunkSize, chunkSize)
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the note and the line on standard error name the file once
	}
	return err
}

// sizeString writes n in the largest unit that divides it.
func sizeString(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{40, "T"}, {30, "G"}, {20, "M"}, {10, "K"}} {
		if n>>u.shift > 0 && n&(1<<u.shift-1) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

var zeros [64 << 10]byte

// writeZeros writes n zero bytes into f at off.
func writeZeros(f *os.File, off, n int64) error {
	for n > 0 {
		k := int64(len(zeros))
		if n < k {
			k = n
		}
		if _, err := f.WriteAt(zeros[:k], off); err != nil {
			return err
		}
		off, n = off+k, n-k
	}
	return nil
}

// noteRoom is the room every chunk keeps, past the records a shard may
// reserve in it, for a note (writeNote): the shard that finds the trace
// cannot grow, or shard 0, always has room to say so.
const noteRoom = 128

// stop stops recording for good because the trace cannot grow (err says
// why): one line on standard error, and a note in the trace, written in
// shard s, which the caller holds, or else in shard 0. Only the first
// call does anything.
func (w *writer) stop(s *shard, err error) {
	if atomic.SwapInt32(&state, stateOff) == stateOff {
		return
	}
	fmt.Fprintf(os.Stderr, "suncat: trace recording stopped: %v; the program goes on, and %s keeps what was recorded\n", err, w.path)
	if s == nil || s.chunk == nil {
		s = w.shards[0]
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.writeNote("recording stopped: " + err.Error())
}

// writeNote writes a note into the room the shard's chunk keeps for it.
func (s *shard) writeNote(text string) {
	if len(text) > noteRoom-16 {
		text = text[:noteRoom-16]
	}
	n := stringLen(text)
	s.endBatch()
	if s.chunk == nil || s.off+4+n+3+4 > len(s.chunk) {
		return
	}
	putString(s.chunk[s.off+4:], text)
	s.commit(kindNote, n)
}
