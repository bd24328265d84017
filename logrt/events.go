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
// unchanged; none is inlined, so that, as for a getter, the first frame
// of the event's stack is the recorder's and the second the user's code
// that read the field or made the call.

// Reads are recorded through readString, which keeps known contexts and
// counts repeats (repeat.go); calls, through String, as getters are.
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
	readString(id, string(v))
	return v
}

// ReadInt records a read of integer field id: its decimal value.
//
//go:noinline
func ReadInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](id uint32, v T) T {
	var b [24]byte
	readString(id, string(strconv.AppendInt(b[:0], int64(v), 10)))
	return v
}

// ReadUint records a read of unsigned integer field id.
//
//go:noinline
func ReadUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](id uint32, v T) T {
	var b [24]byte
	readString(id, string(strconv.AppendUint(b[:0], uint64(v), 10)))
	return v
}

// ReadFloat records a read of floating-point field id.
//
//go:noinline
func ReadFloat[T ~float32 | ~float64](id uint32, v T) T {
	var b [32]byte
	readString(id, string(strconv.AppendFloat(b[:0], float64(v), 'g', -1, 64)))
	return v
}

// ReadBool records a read of boolean field id.
//
//go:noinline
func ReadBool[T ~bool](id uint32, v T) T {
	if v {
		readString(id, "true")
	} else {
		readString(id, "false")
	}
	return v
}

// ReadSlice records a read of slice field id: "len N".
//
//go:noinline
func ReadSlice[S ~[]E, E any](id uint32, v S) S {
	var b [24]byte
	readString(id, string(strconv.AppendInt(append(b[:0], "len "...), int64(len(v)), 10)))
	return v
}

// ReadMap records a read of map field id: "len N".
//
//go:noinline
func ReadMap[M ~map[K]V, K comparable, V any](id uint32, v M) M {
	var b [24]byte
	readString(id, string(strconv.AppendInt(append(b[:0], "len "...), int64(len(v)), 10)))
	return v
}

// ReadArray records a read of array field id, of length n: "len N".
//
//go:noinline
func ReadArray[T any](id uint32, v T, n int) T {
	var b [24]byte
	readString(id, string(strconv.AppendInt(append(b[:0], "len "...), int64(n), 10)))
	return v
}

// ReadAs records a read of field id of any other type: its type's name.
//
//go:noinline
func ReadAs[T any](id uint32, v T, name string) T {
	readString(id, name)
	return v
}

// The reads of fields inside functions go through the variants below,
// ReadStringF and so on: the same, with the address of the reading
// function's frame cache (a Frame, declared at the start of the function
// body) and the index k of the read's site among the function's sites.
// Reads outside functions (package-level variable initializers) keep to
// ReadString and so on.

// ReadStringF is ReadString with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadStringF[S ~string](f *FrameCache, k, id uint32, v S) S {
	readStringF(f, k, id, string(v))
	return v
}

// ReadIntF is ReadInt with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadIntF[T ~int | ~int8 | ~int16 | ~int32 | ~int64](f *FrameCache, k, id uint32, v T) T {
	var b [24]byte
	readStringF(f, k, id, string(strconv.AppendInt(b[:0], int64(v), 10)))
	return v
}

// ReadUintF is ReadUint with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadUintF[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](f *FrameCache, k, id uint32, v T) T {
	var b [24]byte
	readStringF(f, k, id, string(strconv.AppendUint(b[:0], uint64(v), 10)))
	return v
}

// ReadFloatF is ReadFloat with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadFloatF[T ~float32 | ~float64](f *FrameCache, k, id uint32, v T) T {
	var b [32]byte
	readStringF(f, k, id, string(strconv.AppendFloat(b[:0], float64(v), 'g', -1, 64)))
	return v
}

// ReadBoolF is ReadBool with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadBoolF[T ~bool](f *FrameCache, k, id uint32, v T) T {
	if v {
		readStringF(f, k, id, "true")
	} else {
		readStringF(f, k, id, "false")
	}
	return v
}

// ReadSliceF is ReadSlice with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadSliceF[S ~[]E, E any](f *FrameCache, k, id uint32, v S) S {
	var b [24]byte
	readStringF(f, k, id, string(strconv.AppendInt(append(b[:0], "len "...), int64(len(v)), 10)))
	return v
}

// ReadMapF is ReadMap with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadMapF[M ~map[K]V, K comparable, V any](f *FrameCache, k, id uint32, v M) M {
	var b [24]byte
	readStringF(f, k, id, string(strconv.AppendInt(append(b[:0], "len "...), int64(len(v)), 10)))
	return v
}

// ReadArrayF is ReadArray with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadArrayF[T any](f *FrameCache, k, id uint32, v T, n int) T {
	var b [24]byte
	readStringF(f, k, id, string(strconv.AppendInt(append(b[:0], "len "...), int64(n), 10)))
	return v
}

// ReadAsF is ReadAs with the frame cache f of the reading function's activation
// and the read's site k in it (frame.go).
//
//go:noinline
func ReadAsF[T any](f *FrameCache, k, id uint32, v T, name string) T {
	readStringF(f, k, id, name)
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

// CallArg records a call of function id whose first string argument is
// v, and returns v.
//
//go:noinline
func CallArg[S ~string](id uint32, v S) S {
	String(id, string(v))
	return v
}
