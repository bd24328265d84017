package logrt

import (
	"hash/maphash"
	"unsafe"
)

// A valueDict is a shard's dictionary of values: what it defined, by hash
// (table), and in the order it defined them (byID). It keeps no value
// bytes: a value is known by a 64-bit hash of the bytes the trace keeps of
// it (seeded afresh in each process) and by its full length. Two
// different values of one trace are mistaken for each other only if both
// agree, and a lookup compares with the few slots of its probe sequence
// (8.5 on average when the table is fullest) and two more (find), not with
// every value: at a million lookups a second, a mistake is expected about
// once in fifty thousand years. A goroutine that
// reads the values it read before, in the same order, as a loop over the
// same data does, finds each one next to the last one it found without a
// lookup in the table, whose slots are scattered over memory that the
// cache does not hold once there are many values. Where each goroutine's
// getters are in that order is kept in lanes, by getter and goroutine
// (told apart by the address of their outermost frame, a hint: two that
// share a lane only look in the table more often).
type valueDict struct {
	table flatTable // (hash, full length) -> id (flat.go)
	byID  idKeys    // the keys by id
	lanes [64]valueLane
	hot   [hotSlots]hotValue // values found lately, by hash (find)
	limit int                // the most values it remembers
}

// hotSlots is the size of the cache of values found lately: a getter
// that returns a few values in no order (a kind, a state, a name of a
// small set) finds them there, without reading the table, whose slots
// the processor's cache does not hold once there are many values.
const hotSlots = 256

type hotValue struct {
	hash  uint64
	n, id uint32
}

type valueKey struct {
	hash uint64
	n    uint32
}

type valueLane struct {
	key  uintptr // getter and goroutine, see lane
	last uint32  // the id of the value found last
}

// lane returns the lane of getter g on the goroutine whose outermost
// frame is at root.
func (d *valueDict) lane(g uint32, root uintptr) *valueLane {
	key := root ^ uintptr(g)<<3
	l := &d.lanes[uint64(key)*0x9e3779b97f4a7c15>>58]
	if l.key != key {
		l.key, l.last = key, 0
	}
	return l
}

// find returns the id of the value of hash h and full length n, read in
// lane l, if the shard defined it.
func (d *valueDict) find(l *valueLane, h uint64, n int) (uint32, bool) {
	key := valueKey{h, uint32(n)}
	if next := l.last + 1; d.byID.has(next) && d.byID.at(next) == key {
		l.last = next
		return next, true
	}
	if l.last != 0 && d.byID.has(l.last) && d.byID.at(l.last) == key {
		return l.last, true
	}
	hot := &d.hot[h%hotSlots]
	if hot.hash == h && hot.n == uint32(n) && hot.id != 0 {
		l.last = hot.id
		return hot.id, true
	}
	id, ok := d.table.find(h, uint32(n))
	if ok {
		l.last = id
		*hot = hotValue{h, uint32(n), id}
	}
	return id, ok
}

// add records id, the next id of the shard, as that of the value of hash h
// and full length n, read in lane l.
func (d *valueDict) add(l *valueLane, h uint64, n int, id uint32) {
	if id != d.byID.next() || d.table.used >= d.limit {
		return // full, or it was before: ids past it are not remembered
	}
	d.byID.push(valueKey{h, uint32(n)})
	d.table.add(h, uint32(n), id)
	l.last = id
}

// idKeys holds the keys of ids 1, 2, ... in blocks of keyBlock, so that
// adding one never copies the others (where fresh memory is dear, copying
// a few MiB into a new array stalled a getter call for milliseconds).
type idKeys struct {
	blocks [][]valueKey
	n      uint32 // ids below n are held; id 0 is none
}

const keyBlockShift = 12 // keyBlock: 4096 keys, 64 KiB

func (k *idKeys) has(id uint32) bool { return id < k.n && id != 0 }

func (k *idKeys) at(id uint32) valueKey {
	return k.blocks[id>>keyBlockShift][id&(1<<keyBlockShift-1)]
}

// next returns the id the next push holds.
func (k *idKeys) next() uint32 {
	if k.n == 0 {
		return 1
	}
	return k.n
}

func (k *idKeys) push(key valueKey) {
	if k.n == 0 {
		k.n = 1 // id 0 is none: its slot stays empty
	}
	if k.n>>keyBlockShift == uint32(len(k.blocks)) {
		k.blocks = append(k.blocks, make([]valueKey, 1<<keyBlockShift))
	}
	k.blocks[k.n>>keyBlockShift][k.n&(1<<keyBlockShift-1)] = key
	k.n++
}

var valueSeed = maphash.MakeSeed()

// valueHash returns the hash of the kept bytes of a value.
func valueHash(kept string) uint64 { return hashString(valueSeed, kept) }

// Strings seen. A read of a pointer, an interface or any other value
// that is not a string, a number or a length records the name of its
// type (ReadAs), a literal of the generated code: the same string again
// and again, which was hashed and looked up at each read. A shard keeps
// the last names it wrote, by the address of their bytes, with their
// ids: one found there (the same string, compared as Go compares strings,
// at once where the bytes are the same bytes) is not hashed and looked
// up. The cache holds the strings it keeps, so their memory is not
// reused for other strings meanwhile (should a name be other than a
// literal); only strings of up to maxSeen bytes are kept. Other strings
// (getters' values, string fields) are left out: most are new strings
// (recbench's getters), whose misses cost more than the hits saved.
const (
	seenSlots = 256
	maxSeen   = 256
)

type seenValue struct {
	s  string
	id uint32
}

// seenString returns the shard's string id of v, read by getter g on
// the goroutine whose first frame is at root (internString).
func (s *shard) seenString(g uint32, root uintptr, v string) uint32 {
	if len(v) == 0 || len(v) > maxSeen {
		return s.internString(g, root, v)
	}
	if s.seen == nil {
		s.seen = new([seenSlots]seenValue)
	}
	p := *(*uintptr)(unsafe.Pointer(&v)) // the address of its bytes
	e := &s.seen[uint64(p)*0x9e3779b97f4a7c15>>56]
	if e.id != 0 && e.s == v {
		return e.id
	}
	id := s.internString(g, root, v)
	if s.values.byID.has(id) { // remembered: it is never defined again
		e.s, e.id = v, id
	}
	return id
}
