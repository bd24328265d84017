package logrt

import (
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Events beyond string getters (suncat instrument -reads, -calls): a read
// of a struct field and a call of a chosen function are recorded like a
// getter call, through String, under an id of the getter table whose
// Field says the kind (EventKind). Generated code passes the value read
// (or the callee) through one of the functions below, which return it
// unchanged; none is inlined, so that the walk finds the recorder's frame
// at a fixed place: a call's stack starts there, as a getter's starts at
// the getter, and a read's starts at the next frame, the user's code
// that read the field (trace format 6: the recorder's frame is not
// recorded for reads; the readers name the first frame after the field).

// Reads are recorded through readValue, which keeps known contexts,
// writes batches and counts repeats (repeat.go, batch.go); calls, through
// String, as getters are. The value of an integer, boolean or length is
// passed as a literal (recValue), formatted only where the event is written
// as a string, to the same decimal, "len N", "true" or "false".
//
// Field prefixes of the getter table entries of reads and calls
// (tracefmt.Getter.EventKind).
const (
	ReadPrefix = tracefmt.ReadPrefix
	CallPrefix = tracefmt.CallPrefix
)

// ReadString records a read of string field id.
//
//go:noinline
func ReadString[S ~string](id uint32, v S) S {
	readValue(id, recValue{s: string(v)})
	return v
}

// ReadInt records a read of integer field id: its decimal value.
//
//go:noinline
func ReadInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](id uint32, v T) T {
	readValue(id, recValue{n: uint64(int64(v)), lit: litInt})
	return v
}

// ReadUint records a read of unsigned integer field id.
//
//go:noinline
func ReadUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](id uint32, v T) T {
	readValue(id, recValue{n: uint64(v), lit: litUint})
	return v
}

// ReadFloat records a read of floating-point field id.
//
//go:noinline
func ReadFloat[T ~float32 | ~float64](id uint32, v T) T {
	var b [32]byte
	readValue(id, recValue{s: string(strconv.AppendFloat(b[:0], float64(v), 'g', -1, 64))})
	return v
}

// ReadBool records a read of boolean field id.
//
//go:noinline
func ReadBool[T ~bool](id uint32, v T) T {
	n := uint64(0)
	if v {
		n = 1
	}
	readValue(id, recValue{n: n, lit: litBool})
	return v
}

// ReadSlice records a read of slice field id: "len N".
//
//go:noinline
func ReadSlice[S ~[]E, E any](id uint32, v S) S {
	readValue(id, recValue{n: uint64(len(v)), lit: litLen})
	return v
}

// ReadMap records a read of map field id: "len N".
//
//go:noinline
func ReadMap[M ~map[K]V, K comparable, V any](id uint32, v M) M {
	readValue(id, recValue{n: uint64(len(v)), lit: litLen})
	return v
}

// ReadArray records a read of array field id, of length n: "len N".
//
//go:noinline
func ReadArray[T any](id uint32, v T, n int) T {
	readValue(id, recValue{n: uint64(n), lit: litLen})
	return v
}

// ReadAs records a read of field id of any other type: its type's name.
//
//go:noinline
func ReadAs[T any](id uint32, v T, name string) T {
	readValue(id, recValue{s: name, named: true})
	return v
}

// The reads of fields inside functions go through the variants below,
// ReadStringF and so on: the same, with the address of the reading
// function's frame cache (a Frame, declared at the start of the function
// body) and the index k of the read's site among the function's sites.
// Each tries hit first (a site its activation read before, or the
// activation's first read, from an anchor: frame.go), and readValueF,
// which walks, only if hit did not record the read. Reads outside
// functions (package-level variable initializers) keep to ReadString and
// so on.

// ReadStringF is ReadString with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadStringF[S ~string](f *FrameCache, k, id uint32, v S) S {
	rv := recValue{s: string(v)}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadIntF is ReadInt with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadIntF[T ~int | ~int8 | ~int16 | ~int32 | ~int64](f *FrameCache, k, id uint32, v T) T {
	rv := recValue{n: uint64(int64(v)), lit: litInt}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadUintF is ReadUint with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadUintF[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](f *FrameCache, k, id uint32, v T) T {
	rv := recValue{n: uint64(v), lit: litUint}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadFloatF is ReadFloat with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadFloatF[T ~float32 | ~float64](f *FrameCache, k, id uint32, v T) T {
	var b [32]byte
	rv := recValue{s: string(strconv.AppendFloat(b[:0], float64(v), 'g', -1, 64))}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadBoolF is ReadBool with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadBoolF[T ~bool](f *FrameCache, k, id uint32, v T) T {
	n := uint64(0)
	if v {
		n = 1
	}
	rv := recValue{n: n, lit: litBool}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadSliceF is ReadSlice with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadSliceF[S ~[]E, E any](f *FrameCache, k, id uint32, v S) S {
	rv := recValue{n: uint64(len(v)), lit: litLen}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadMapF is ReadMap with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadMapF[M ~map[K]V, K comparable, V any](f *FrameCache, k, id uint32, v M) M {
	rv := recValue{n: uint64(len(v)), lit: litLen}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadArrayF is ReadArray with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadArrayF[T any](f *FrameCache, k, id uint32, v T, n int) T {
	rv := recValue{n: uint64(n), lit: litLen}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// ReadAsF is ReadAs with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadAsF[T any](f *FrameCache, k, id uint32, v T, name string) T {
	rv := recValue{s: name, named: true}
	if !w.hit(f, k, id, rv) {
		readValueF(f, k, id, rv)
	} else if delays != nil {
		delay(id)
	}
	return v
}

// Call records a call of function id, about to be made through f, with
// the value v (the first string argument, or the function's name), and
// returns f.
//
//go:noinline
func Call[F any](id uint32, f F, v string) F {
	String(id, v)
	return f
}

// CallWith records a call of function id, with v as Call does, at one
// of its arguments, a, which it returns: a generic function called with
// no string argument cannot be wrapped as a value (it has no type
// before its type arguments are inferred from its arguments).
//
//go:noinline
func CallWith[T any](id uint32, a T, v string) T {
	String(id, v)
	return a
}

// CallArg records a call of function id whose first string argument is
// v, and returns v.
//
//go:noinline
func CallArg[S ~string](id uint32, v S) S {
	String(id, string(v))
	return v
}
