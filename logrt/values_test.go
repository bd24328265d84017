package logrt

import (
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestValueDict looks up random values, returned by a few getters in runs
// that repeat in order (as loops return them) and at random, and checks
// every answer against a model that knows each value by its bytes: a
// value the dictionary finds has the id it was given, a value it does not
// find was never added, and past its limit it adds nothing more.
func TestValueDict(t *testing.T) {
	for _, limit := range []int{1 << 20, 300} {
		checkValueDict(t, limit)
	}
}

func checkValueDict(t *testing.T, limit int) {
	rng := rand.New(rand.NewSource(int64(limit)))
	long := strings.Repeat("é", MaxValue) // cut: values differ in length only
	var pool []string
	for i := 0; i < 2000; i++ {
		if i%50 == 0 {
			pool = append(pool, long[:len(long)-2*(i%7)])
			continue
		}
		pool = append(pool, "value "+itoa(rng.Intn(5000)))
	}
	d := valueDict{limit: limit}
	model := map[string]uint32{} // by kept bytes and full length
	next := uint32(0)
	lookup := func(g uint32, v string) {
		kept := cut(v)
		key := kept + "|" + itoa(len(v))
		h := valueHash(kept)
		l := d.lane(g%2, uintptr(g/2)*4096)
		id, ok := d.find(l, h, len(v))
		want, known := model[key]
		switch {
		case ok && (!known || id != want):
			t.Fatalf("limit %d: %.20q found as %d, want %d (known %v)", limit, v, id, want, known)
		case !ok && known:
			t.Fatalf("limit %d: %.20q not found, want %d", limit, v, want)
		case !ok:
			next++
			d.add(l, h, len(v), next)
			if len(model) < limit {
				model[key] = next
			}
		}
	}
	for round := 0; round < 200; round++ {
		g := uint32(rng.Intn(4))
		start, n := rng.Intn(len(pool)), 1+rng.Intn(100)
		for i := 0; i < n; i++ {
			if rng.Intn(10) == 0 {
				lookup(uint32(rng.Intn(4)), pool[rng.Intn(len(pool))])
			} else {
				lookup(g, pool[(start+i)%len(pool)])
			}
		}
	}
	if d.table.used != len(model) {
		t.Errorf("limit %d: the table holds %d values, want %d", limit, d.table.used, len(model))
	}
}

// TestFlatTable: keys that share a but not b are two keys (two values
// with one hash but different lengths), and every key is found after the
// table has doubled several times.
func TestFlatTable(t *testing.T) {
	var vt flatTable
	vt.add(42, 3, 1)
	if _, ok := vt.find(42, 4); ok {
		t.Fatal("found a value of length 4 under the entry of length 3")
	}
	if id, ok := vt.find(42, 3); !ok || id != 1 {
		t.Fatalf("find(42, 3) = %d, %v; want 1, true", id, ok)
	}
	for i := uint64(1); i <= 5000; i++ { // through several doublings
		vt.add(i*0x9e3779b97f4a7c15, 1, uint32(i+1))
	}
	for i := uint64(1); i <= 5000; i++ {
		if id, ok := vt.find(i*0x9e3779b97f4a7c15, 1); !ok || id != uint32(i+1) {
			t.Fatalf("after growing: value %d found as %d, %v", i, id, ok)
		}
	}
}

// TestValueDictGuessLength: the guesses (the value after the lane's last,
// and the lane's last) tell values apart by length too, as the table does:
// cut values differ in their full length only.
func TestValueDictGuessLength(t *testing.T) {
	d := valueDict{limit: 10}
	l := d.lane(1, 0)
	d.add(l, 42, 3, 1)
	l.last = 0 // the next guess is value 1
	if id, ok := d.find(l, 42, 4); ok {
		t.Fatalf("the guess of the next value found %d for a value of another length", id)
	}
	l.last = 1 // the guess is the last value itself
	if id, ok := d.find(l, 42, 4); ok {
		t.Fatalf("the guess of the same value found %d for a value of another length", id)
	}
	if id, ok := d.find(l, 42, 3); !ok || id != 1 {
		t.Fatalf("find(42, 3) = %d, %v; want 1, true", id, ok)
	}
	// Where neither guess applies (the lane's last value is the newest,
	// another one), a value found in the table is kept in the hot cache,
	// which tells values apart by length too.
	d.add(l, 99, 5, 2)
	if id, ok := d.find(l, 42, 3); !ok || id != 1 {
		t.Fatalf("find(42, 3) through the table = %d, %v; want 1, true", id, ok)
	}
	l.last = 2
	if id, ok := d.find(l, 42, 4); ok {
		t.Fatalf("the hot cache found %d for a value of another length", id)
	}
	l.last = 2
	if id, ok := d.find(l, 42, 3); !ok || id != 1 || d.hot[42%hotSlots].id != 1 {
		t.Fatalf("find(42, 3) through the hot cache = %d, %v; want 1, true", id, ok)
	}
}

// TestValueBudget records more distinct values than the writer remembers
// (maxInterned), then the first 1000 again, which it remembers, and the
// last 1000, which it does not: every event must read back with its
// value, and only the last 1000 are defined twice. GOMAXPROCS=1 and the
// locked shards (SUNCAT_PIN=0) keep the one goroutine on one shard: a P's
// own shard leaves a record to a locked one when its next chunk is not
// mapped yet (often so under the race detector), and the value is then
// defined in both.
func TestValueBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("records half a million events")
	}
	n := maxInterned + 2*valueGrant
	tr := runProg(t, "distinct", n, "GOMAXPROCS=1", "SUNCAT_PIN=0")
	want := func(k int) string {
		switch {
		case k < n:
			return "v" + strconv.Itoa(k)
		case k < n+1000:
			return "v" + strconv.Itoa(k-n)
		}
		return "v" + strconv.Itoa(n-1000+k-n-1000)
	}
	if len(tr.Events) != n+2000 {
		t.Fatalf("%d events, want %d", len(tr.Events), n+2000)
	}
	for k, e := range tr.Events {
		if e.Value != want(k) {
			t.Fatalf("event %d: value %q, want %q", k, e.Value, want(k))
		}
	}
	if tr.Strings != n+1000 {
		t.Errorf("%d string definitions, want %d (each value once, the last 1000 twice)", tr.Strings, n+1000)
	}
}

// TestFlatTableGrowing adds keys, some of them colliding in their home
// slot, and after every add finds all the keys so far, and a few that
// were never added, while the table moves its old array into the new one
// a little at a time; it also checks that it does move a little at a
// time, and that it is done before the next doubling.
func TestFlatTableGrowing(t *testing.T) {
	var ft flatTable
	model := map[[2]uint64]uint32{}
	rng := rand.New(rand.NewSource(1))
	moving, longest := 0, 0 // adds after which the old array is still there
	for id := uint32(1); id <= 3000; id++ {
		a := rng.Uint64()
		if id%7 == 0 {
			a = uint64(id % 5) // a few small keys, told apart by b
		}
		b := uint32(rng.Intn(3))
		if _, ok := model[[2]uint64{a, uint64(b)}]; ok {
			continue
		}
		before := len(ft.slots)
		if 4*(ft.used+1) > 3*len(ft.slots) && ft.old != nil {
			t.Fatalf("at %d entries the table doubles again before its old array of %d slots is moved", ft.used, len(ft.old))
		}
		ft.add(a, b, id)
		model[[2]uint64{a, uint64(b)}] = id
		if len(ft.slots) != before && before > 0 && ft.old == nil {
			t.Fatalf("after doubling to %d slots, nothing is left to move", len(ft.slots))
		}
		if ft.old == nil {
			moving = 0
		} else {
			moving++
			if moving > longest {
				longest = moving
			}
			if ft.moved > len(ft.old) {
				t.Fatalf("moved %d of %d old slots", ft.moved, len(ft.old))
			}
		}
		if ft.used != len(model) {
			t.Fatalf("used %d, want %d", ft.used, len(model))
		}
		if id%97 == 0 || ft.old != nil && id%5 == 0 {
			for k, want := range model {
				if got, ok := ft.find(k[0], uint32(k[1])); !ok || got != want {
					t.Fatalf("after %d adds: key %v found as %d, %v; want %d", id, k, got, ok, want)
				}
			}
			if got, ok := ft.find(rng.Uint64(), 7); ok {
				t.Fatalf("found %d for a key never added", got)
			}
		}
	}
	if longest < 4 {
		t.Fatalf("the old array was moved within %d adds: at once, not a little at a time", longest)
	}
}

// TestIDKeys: keys pushed across several blocks read back by id.
func TestIDKeys(t *testing.T) {
	var k idKeys
	if k.has(0) || k.has(1) || k.next() != 1 {
		t.Fatalf("empty: has(0)=%v has(1)=%v next=%d", k.has(0), k.has(1), k.next())
	}
	const n = 3<<keyBlockShift + 5
	for i := uint32(1); i <= n; i++ {
		if k.next() != i {
			t.Fatalf("next = %d, want %d", k.next(), i)
		}
		k.push(valueKey{hash: uint64(i) * 31, n: i})
	}
	for i := uint32(1); i <= n; i++ {
		if !k.has(i) || k.at(i) != (valueKey{hash: uint64(i) * 31, n: i}) {
			t.Fatalf("id %d: has %v, key %v", i, k.has(i), k.at(i))
		}
	}
	if k.has(0) || k.has(n+1) {
		t.Fatalf("has(0)=%v has(n+1)=%v", k.has(0), k.has(n+1))
	}
}

// TestFlatTableMapped grows a table past hugeSlots, where its slots are
// mapped outside the Go heap on Linux (slots_linux.go), through two
// doublings whose old arrays are moved and unmapped, and checks that
// every key is found, after a collection too, and that release empties it.
func TestFlatTableMapped(t *testing.T) {
	var ft flatTable
	n := uint32(3 * hugeSlots / 4 * 2) // past two doublings from hugeSlots/2
	mapped := false
	for id := uint32(1); id <= n; id++ {
		ft.add(uint64(id)*0x9e3779b97f4a7c15, id%3, id)
		mapped = mapped || ft.slotsMap != nil
	}
	if runtime.GOOS == "linux" && hugeOn && !mapped {
		t.Errorf("%d slots and never mapped; want the slots mapped from %d", len(ft.slots), hugeSlots)
	}
	runtime.GC()
	for id := uint32(1); id <= n; id++ {
		if got, ok := ft.find(uint64(id)*0x9e3779b97f4a7c15, id%3); !ok || got != id {
			t.Fatalf("find key %d = %d, %v; want %d, true", id, got, ok, id)
		}
	}
	if _, ok := ft.find(1, 1); ok {
		t.Errorf("found a key never added")
	}
	ft.release()
	if ft.slots != nil || ft.slotsMap != nil || ft.used != 0 {
		t.Errorf("after release: %d slots, %d used; want an empty table", len(ft.slots), ft.used)
	}
	if _, ok := ft.find(uint64(1)*0x9e3779b97f4a7c15, 1); ok {
		t.Errorf("found a key after release")
	}
}

// TestSeenStrings checks the shard's cache of strings seen (values.go):
// the same string again is found there with its id, without a new
// definition; an equal string elsewhere in memory has the same id, and a
// different string of the same length another; a string too long to
// keep is defined as before.
func TestSeenStrings(t *testing.T) {
	useBenchTrace(t)
	ReadString(4, "start") // starts the trace
	if !w.recording() {
		t.Skip("not recording here")
	}
	s := w.lockShard()
	defer s.release()
	name := "*example.com/app.Node"
	first := s.seenString(4, 0, name)
	defs := s.nextStr
	for i := 0; i < 100; i++ {
		if id := s.seenString(4, 0, name); id != first {
			t.Fatalf("the same string again: id %d, want %d", id, first)
		}
	}
	if s.nextStr != defs {
		t.Errorf("the same string again made %d definitions", s.nextStr-defs)
	}
	if e := &s.seen[uint64(*(*uintptr)(unsafe.Pointer(&name)))*0x9e3779b97f4a7c15>>56]; e.s != name || e.id != first {
		t.Errorf("the cache holds %q (%d), want %q (%d)", e.s, e.id, name, first)
	}
	copied := string([]byte(name)) // the same bytes elsewhere
	if id := s.seenString(4, 0, copied); id != first {
		t.Errorf("an equal string elsewhere: id %d, want %d", id, first)
	}
	prefix := name[:len(name)-1] // its bytes at the same address: the same slot
	if id := s.seenString(4, 0, prefix); id == first || id == 0 {
		t.Errorf("a prefix of the string: id %d (the string's %d)", id, first)
	}
	other := "*example.com/app.Edge"
	if id := s.seenString(4, 0, other); id == first || id == 0 {
		t.Errorf("a different string of the same length: id %d (the first's %d)", id, first)
	}
	long := strings.Repeat("x", maxSeen+1)
	a := s.seenString(4, 0, long)
	b := s.seenString(4, 0, long)
	if a != b || a == 0 {
		t.Errorf("a long string twice: ids %d and %d, want one id", a, b)
	}
}
