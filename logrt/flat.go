package logrt

import (
	"math/bits"
	"os"
)

// A flatTable maps a key of two parts, a 64-bit a and a 32-bit b, to an
// id (never 0): open addressing with linear probing in one array with no
// pointers, so the garbage collector has nothing to scan and a lookup
// reads one or two cache lines. The writer's dictionaries use it: the
// call-site tree's edges (a: return address, b: parent node) and the
// values (a: hash of the value, b: its length).
//
// It grows a little at a time: when it doubles, the new array takes the
// new entries, and each add moves growStep slots of the old one into it,
// so no single getter call pays for rehashing (and, where fresh memory is
// dear, faulting in) the whole table: a 16 MiB table took 25 ms to double
// at once on the development VM (BENCH.md, BenchmarkEventTail). Until the
// old array is emptied, find looks in both.
type flatTable struct {
	slots []flatSlot // a power of two long; id 0 marks an empty slot
	used  int        // entries, in slots and old together
	shift uint       // 64 - log2(len(slots))

	old   []flatSlot // the array before the last doubling, or nil
	moved int        // old[:moved] are in slots (old keeps them, for probing)

	// The mappings that hold slots and old, if they are mapped outside
	// the Go heap (makeSlots), else nil.
	slotsMap, oldMap []byte
}

// hugeOn says whether large tables are mapped for huge pages
// (slots_linux.go), unless SUNCAT_HUGE=0.
var hugeOn = os.Getenv("SUNCAT_HUGE") != "0"

// release unmaps the table's mappings; the table is empty after.
func (t *flatTable) release() {
	freeSlots(t.slotsMap)
	freeSlots(t.oldMap)
	*t = flatTable{}
}

type flatSlot struct {
	a     uint64
	b, id uint32
}

// growStep is how many old slots each add moves: the old array is empty
// after len(old)/growStep adds, long before the new one is three quarters
// full (another len(old)/2 adds).
const growStep = 32

func flatIndex(a uint64, b uint32, shift uint) uint64 {
	return (a*0x9e3779b97f4a7c15 ^ uint64(b)*0xc2b2ae3d27d4eb4f) >> shift
}

// find returns the id of key (a, b).
func (t *flatTable) find(a uint64, b uint32) (uint32, bool) {
	if id, ok := probeSlots(t.slots, t.shift, a, b); ok {
		return id, true
	}
	if t.old != nil {
		return probeSlots(t.old, t.shift+1, a, b)
	}
	return 0, false
}

// probeSlots looks for key (a, b) in slots, whose length is 1<<(64-shift).
func probeSlots(slots []flatSlot, shift uint, a uint64, b uint32) (uint32, bool) {
	if len(slots) == 0 {
		return 0, false
	}
	mask := uint64(len(slots) - 1)
	for i := flatIndex(a, b, shift); ; i = (i + 1) & mask {
		s := &slots[i]
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
	if t.old != nil {
		t.moveSome()
	}
	if 4*(t.used+1) > 3*len(t.slots) {
		t.grow()
	}
	t.put(flatSlot{a: a, b: b, id: id})
	t.used++
}

func (t *flatTable) put(s flatSlot) {
	mask := uint64(len(t.slots) - 1)
	i := flatIndex(s.a, s.b, t.shift)
	for t.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// grow doubles the table (to 256 slots at first), and starts moving the
// current array. The previous doubling's array is long moved by then
// (growStep); the loop is a safety net should growStep ever be too small.
func (t *flatTable) grow() {
	for t.old != nil {
		t.moveSome()
	}
	size := 2 * len(t.slots)
	if size == 0 {
		size = 256
	}
	t.old, t.oldMap, t.moved = t.slots, t.slotsMap, 0
	t.slots, t.slotsMap = makeSlots(size)
	t.shift = 64 - uint(bits.TrailingZeros(uint(size)))
	if len(t.old) == 0 {
		t.old, t.oldMap = nil, nil
	}
}

// moveSome moves the next growStep slots of the old array.
func (t *flatTable) moveSome() {
	end := t.moved + growStep
	if end > len(t.old) {
		end = len(t.old)
	}
	for _, s := range t.old[t.moved:end] {
		if s.id != 0 {
			t.put(s)
		}
	}
	t.moved = end
	if end == len(t.old) {
		freeSlots(t.oldMap)
		t.old, t.oldMap, t.moved = nil, nil, 0
	}
}
