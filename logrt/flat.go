package logrt

import "math/bits"

// A flatTable maps a key of two parts, a 64-bit a and a 32-bit b, to an
// id (never 0): open addressing with linear probing in one array with no
// pointers, so the garbage collector has nothing to scan and a lookup
// reads one or two cache lines. The writer's dictionaries use it: the
// call-site tree's edges (a: return address, b: parent node) and the
// values (a: hash of the value, b: its length).
type flatTable struct {
	slots []flatSlot // a power of two long; id 0 marks an empty slot
	used  int
	shift uint // 64 - log2(len(slots))
}

type flatSlot struct {
	a     uint64
	b, id uint32
}

func (t *flatTable) index(a uint64, b uint32) uint64 {
	return (a*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f) >> t.shift
}

// find returns the id of key (a, b).
func (t *flatTable) find(a uint64, b uint32) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := t.index(a, b); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id == 0 {
			return 0, false
		}
		if s.a == a && s.b == b {
			return s.id, true
		}
	}
}

// add records id for key (a, b), which find did not have.
func (t *flatTable) add(a uint64, b, id uint32) {
	if 4*(t.used+1) > 3*len(t.slots) {
		t.grow()
	}
	t.put(flatSlot{a: a, b: b, id: id})
	t.used++
}

func (t *flatTable) put(s flatSlot) {
	mask := uint64(len(t.slots) - 1)
	i := t.index(s.a, s.b)
	for t.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// grow doubles the table (to 256 slots at first).
func (t *flatTable) grow() {
	old := t.slots
	size := 2 * len(old)
	if size == 0 {
		size = 256
	}
	t.slots = make([]flatSlot, size)
	t.shift = 64 - uint(bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s.id != 0 {
			t.put(s)
		}
	}
}
