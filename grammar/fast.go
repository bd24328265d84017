package grammar

import "slices"

// The fast engine computes exactly what computeReference computes, without
// rescanning the whole list after every merge.
//
// The specification repeatedly merges, among all chains of the current
// list, the one with the smallest window length n, then the largest k, then
// the smallest start. For a fixed n the best chain of a maximal periodic
// segment (a run: every element equals the one n places later, length at
// least 2n) starts at the run's start and has k = length/n windows, so the
// candidates are runs, ordered by the key (n, -k, start).
//
// The engine keeps a priority queue of candidate runs and a number scanned
// such that every run with period <= scanned has an entry in the queue
// whose key is no larger than the run's own key. Then:
//
//   - Popping the smallest entry and recomputing the run it names gives the
//     global choice of the specification: if the recomputed key equals the
//     popped one, no run can have a smaller key. If the run changed, the
//     entry is re-queued with its true key (or dropped if the run is gone).
//   - A merge replaces a run's windows by one element q. A run that neither
//     contains q afterwards nor overlapped the merged windows keeps its
//     extent. A run that reached into the windows from the left keeps its
//     start and can only shrink, so its queued key is still no larger than
//     its true key. Every other new or changed run either contains q or
//     starts right after it (it began inside the windows and reaches
//     beyond). A run of period d containing q has the same symbol as q at
//     distance d on one side, and a run starting at r = next(q) has the
//     symbol of r at distance d after r, so one walk of scanned elements
//     left and right of q finds them all and re-establishes the invariant.
//   - When the queue is empty, no run with period <= scanned exists. The
//     engine scans the whole list for runs of period n = scanned+1,
//     checking only anchors 0, n, 2n, ... (positions in the list, not in
//     the array): every square of period n covers exactly one anchor j, and
//     exists iff the forward match between j and j+n plus the backward
//     match before them reaches n. After a run is found the scan skips to
//     the first anchor it cannot cover, since two runs of the same period
//     overlap by less than n.
//   - Merges leave holes in the array (dead elements between a merged
//     element and its successor). Compacting the array before every scan
//     would cost O(len) per period that saw a merge, which is O(len^1.5)
//     on a trace with squares of many different periods (a square of
//     period 1, then of period 2, ..., then of period sqrt(len)). So while
//     the holes are few compared with the anchors (holeScanCost * merges
//     since the last compaction <= len/n) the scan runs on the array with
//     holes: the holes form one dead range after each merged element, and
//     two cursors (at j and j+n) walk the sorted list of those ranges to
//     turn list positions into array indexes. Otherwise it compacts first.
//     Compacting costs O(len) and happens only after more than
//     len/(n*holeScanCost) merges.
//
//   - The scans would go on up to period len/2 even though real traces
//     rarely have squares longer than a few dozen events. When the queue
//     is empty at periods 16, 256, 4096, ..., the engine checks with a
//     rolling hash whether any substring of length scanned+1 occurs twice
//     (distinctGrams). If none does, no square of any longer period
//     exists (its first window would occur again one period later), no
//     shorter one exists either, so the list is final and the engine stops.
//
// A scan for period n costs O(len/n) plus the runs it finds plus the holes
// it walks, so scanning all periods up to len/2 costs O(len log len), and
// usually the early stop cuts that to O(len); merges cost their window
// length plus the local walk.

type candidate struct {
	p, k int32 // period (window length) and number of windows
	pos  int32 // index of the run's first element (stable until compaction)
}

func (a candidate) less(b candidate) bool {
	if a.p != b.p {
		return a.p < b.p
	}
	if a.k != b.k {
		return a.k > b.k
	}
	return a.pos < b.pos
}

type candHeap []candidate

func (h *candHeap) push(c candidate) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !s[i].less(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *candHeap) pop() candidate {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		m := l
		if r := l + 1; r < len(s) && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

type fastList struct {
	rs    *ruleSet
	sub   int
	e     []elem
	prev  []int32
	next  []int32
	dead  []bool
	alive int
	holes bool
	heap  candHeap
	buf   []elem
	fresh []elem // Compress's copy of its sub-trace

	fp     []uint8 // fingerprint of each element's key, for the scans' first test
	merged []int32 // merge targets since the last compaction (may repeat)

	nextTest int32    // the period at which to try distinctGrams next
	grams    []uint32 // hash table of distinctGrams
	regions  []hole   // scratch for scanHoles
}

// holeScanCost weighs the holes against the anchors when choosing between
// scanning the array with its holes and compacting it first (see above).
// Tests set it to 0 (always scan with holes) and to a huge value (always
// compact) to check both paths against the reference.
var holeScanCost int64 = 8

// gramTestStep is the first period at which the engine tries to prove that
// no square of a longer period exists, and the factor between tries.
const gramTestStep = 16

// A hole is a range of dead array elements: start is the first, n their
// number.
type hole struct{ start, n int32 }

func computeFast(rs *ruleSet, sub int, x []elem) []elem {
	if len(x) < 2 {
		return x
	}
	l := rs.fast
	if l == nil {
		l = &fastList{rs: rs}
		rs.fast = l
	}
	l.sub, l.e, l.alive, l.nextTest = sub, x, len(x), gramTestStep
	l.heap = l.heap[:0]
	l.relink()
	scanned := int32(0)
	for {
		for len(l.heap) > 0 {
			c := l.heap.pop()
			if l.dead[c.pos] {
				continue
			}
			b := l.at(c.pos, c.p)
			if b < 0 || l.key(c.pos) != l.key(b) {
				continue
			}
			s, n := l.run(c.pos, b, c.p)
			k := n / c.p
			if k < 2 {
				continue
			}
			if s != c.pos || k != c.k {
				l.heap.push(candidate{p: c.p, k: k, pos: s})
				continue
			}
			q := l.merge(s, c.p, k)
			l.rescan(q, scanned)
		}
		if 2*(int(scanned)+1) > l.alive {
			break
		}
		if scanned+1 >= l.nextTest {
			// No square of period <= scanned is left. If no substring of
			// length scanned+1 occurs twice, no longer square exists
			// either, and the list is final.
			l.nextTest *= gramTestStep
			if l.holes {
				l.compact()
			}
			if l.distinctGrams(int(scanned) + 1) {
				break
			}
		}
		scanned++
		if l.holes && holeScanCost*int64(len(l.merged)) > int64(l.alive)/int64(scanned) {
			l.compact()
		}
		if l.holes {
			l.scanHoles(scanned)
		} else {
			l.scan(scanned)
		}
	}
	if l.holes {
		l.compact()
	}
	return l.e
}

func (l *fastList) key(i int32) uint64 { return l.rs.key(l.e[i]) }

// relink sets up the links of a list without holes.
func (l *fastList) relink() {
	n := len(l.e)
	if cap(l.prev) < n {
		l.prev = make([]int32, n)
		l.next = make([]int32, n)
		l.dead = make([]bool, n)
		l.fp = make([]uint8, n)
	}
	l.prev, l.next, l.dead, l.fp = l.prev[:n], l.next[:n], l.dead[:n], l.fp[:n]
	for i := range l.e {
		l.prev[i] = int32(i) - 1
		l.next[i] = int32(i) + 1
		l.dead[i] = false
		l.fp[i] = fingerprint(l.rs.key(l.e[i]))
	}
	l.next[n-1] = -1
	l.holes = false
	l.merged = l.merged[:0]
}

func (l *fastList) compact() {
	out := l.e[:0]
	for i := int32(0); i >= 0; {
		// Elements only move left, so the link walk stays ahead of out.
		next := l.next[i]
		out = append(out, l.e[i])
		i = next
	}
	l.e = out
	l.relink()
}

// at returns the element d places after i, or -1.
func (l *fastList) at(i, d int32) int32 {
	for ; d > 0 && i >= 0; d-- {
		i = l.next[i]
	}
	return i
}

// run returns the start and length of the run of period d through a and
// b, where b is d places after a and has the same key.
func (l *fastList) run(a, b, d int32) (start, length int32) {
	start, length = a, d
	for pa, pb := l.prev[a], l.prev[b]; pa >= 0 && l.key(pa) == l.key(pb); pa, pb = l.prev[pa], l.prev[pb] {
		start = pa
		length++
	}
	for ; b >= 0 && l.key(a) == l.key(b); a, b = l.next[a], l.next[b] {
		length++
	}
	return start, length
}

// merge replaces the k windows of length p starting at s by one element
// and returns its index (s).
func (l *fastList) merge(s, p, k int32) int32 {
	w := l.buf[:0]
	i := s
	for t := int32(0); t < p*k; t++ {
		w = append(w, l.e[i])
		if t > 0 {
			l.dead[i] = true
		}
		i = l.next[i]
	}
	l.buf = w
	l.e[s] = l.rs.mergeWindows(w, int(p), int(k), l.sub)
	l.fp[s] = fingerprint(l.key(s))
	l.next[s] = i
	if i >= 0 {
		l.prev[i] = s
	}
	l.alive -= int(p*k) - 1
	l.holes = true
	l.merged = append(l.merged, s)
	return s
}

// rescan queues every run of period <= bound that contains q.
func (l *fastList) rescan(q, bound int32) {
	if max := int32(l.alive / 2); bound > max {
		bound = max
	}
	kq := l.key(q)
	d := int32(1)
	for a := l.prev[q]; a >= 0 && d <= bound; a, d = l.prev[a], d+1 {
		if l.key(a) == kq {
			l.queueRun(a, q, d)
		}
	}
	// Runs that started inside the merged windows and reach beyond them
	// now start right after q (unless they grew to contain q).
	r := l.next[q]
	if r < 0 {
		return
	}
	kr := l.key(r)
	d = 1
	for b := r; b >= 0 && d <= bound+1; b, d = l.next[b], d+1 {
		if d <= bound && l.key(b) == kq {
			l.queueRun(q, b, d)
		}
		if d >= 2 && l.key(b) == kr {
			l.queueRun(r, b, d-1)
		}
	}
}

func (l *fastList) queueRun(a, b, d int32) {
	s, n := l.run(a, b, d)
	if k := n / d; k >= 2 {
		l.heap.push(candidate{p: d, k: k, pos: s})
	}
}

// scan queues every run of period n of a list without holes.
func (l *fastList) scan(n int32) {
	e, fp := l.e, l.fp
	rs := l.rs
	size := int32(len(e))
	for j := int32(0); j+n < size; {
		if fp[j] != fp[j+n] && (j == 0 || fp[j-1] != fp[j+n-1]) {
			j += n
			continue
		}
		if rs.key(e[j]) != rs.key(e[j+n]) && (j == 0 || rs.key(e[j-1]) != rs.key(e[j+n-1])) {
			j += n
			continue
		}
		f := int32(0)
		for j+n+f < size && f < n && rs.key(e[j+f]) == rs.key(e[j+n+f]) {
			f++
		}
		b := int32(0)
		for j-1-b >= 0 && b < n && rs.key(e[j-1-b]) == rs.key(e[j+n-1-b]) {
			b++
		}
		if f+b < n {
			j += n
			continue
		}
		s := j - b
		for s > 0 && rs.key(e[s-1]) == rs.key(e[s-1+n]) {
			s--
		}
		t := j + f
		for t+n < size && rs.key(e[t]) == rs.key(e[t+n]) {
			t++
		}
		l.heap.push(candidate{p: n, k: (t + n - s) / n, pos: s})
		next := (t + n) / n * n // first multiple of n >= t+1
		if next <= j {
			next = j + n
		}
		j = next
	}
}

// scanHoles queues every run of period n, like scan, on an array with
// holes. Every dead range follows an element that was the target of a
// merge since the last compaction and is still alive.
func (l *fastList) scanHoles(n int32) {
	l.regions = l.holeRanges(l.regions[:0])
	var ca, cb cursor
	ca.regions, cb.regions = l.regions, l.regions
	size := int32(l.alive)
	for j := int32(0); j+n < size; {
		pa, pb := ca.seek(j), cb.seek(j+n)
		if l.fp[pa] != l.fp[pb] && (j == 0 || l.fp[ca.prev()] != l.fp[cb.prev()]) {
			j += n
			continue
		}
		if l.key(pa) != l.key(pb) && (j == 0 || l.key(ca.prev()) != l.key(cb.prev())) {
			j += n
			continue
		}
		// Forward match from (j, j+n), at most n.
		f := int32(0)
		a, b := pa, pb
		for b >= 0 && f < n && l.key(a) == l.key(b) {
			f++
			a, b = l.next[a], l.next[b]
		}
		// Backward match before them, at most n.
		bk := int32(0)
		sa, sb := pa, pb // the leftmost matched pair so far
		for x, y := l.prev[pa], l.prev[pb]; x >= 0 && bk < n && l.key(x) == l.key(y); x, y = l.prev[x], l.prev[y] {
			bk++
			sa, sb = x, y
		}
		if f+bk < n {
			j += n
			continue
		}
		s := j - bk
		for x, y := l.prev[sa], l.prev[sb]; x >= 0 && l.key(x) == l.key(y); x, y = l.prev[x], l.prev[y] {
			s--
			sa = x
		}
		t := j + f
		for b >= 0 && l.key(a) == l.key(b) {
			t++
			a, b = l.next[a], l.next[b]
		}
		l.heap.push(candidate{p: n, k: (t + n - s) / n, pos: sa})
		next := (t + n) / n * n // first multiple of n >= t+1
		if next <= j {
			next = j + n
		}
		j = next
	}
}

// holeRanges appends the dead ranges of the array to out, in array order.
func (l *fastList) holeRanges(out []hole) []hole {
	m := l.merged
	slices.Sort(m)
	last := int32(-1)
	for _, s := range m {
		if s == last || l.dead[s] {
			continue
		}
		last = s
		end := l.next[s]
		if end < 0 {
			end = int32(len(l.e))
		}
		if end > s+1 {
			out = append(out, hole{start: s + 1, n: end - s - 1})
		}
	}
	return out
}

// A cursor turns increasing list positions into array indexes by walking
// the sorted dead ranges.
type cursor struct {
	pos, idx int32 // list position and array index of the current element
	ri       int   // dead ranges before ri lie before idx
	regions  []hole
}

// prev returns the index of the element before the current one (which
// must not be the first), without reading the links.
func (c *cursor) prev() int32 {
	if c.ri > 0 {
		if h := c.regions[c.ri-1]; h.start+h.n == c.idx {
			return h.start - 1
		}
	}
	return c.idx - 1
}

// seek moves the cursor forward to list position p and returns its index.
func (c *cursor) seek(p int32) int32 {
	c.idx += p - c.pos
	c.pos = p
	for c.ri < len(c.regions) && c.regions[c.ri].start <= c.idx {
		c.idx += c.regions[c.ri].n
		c.ri++
	}
	return c.idx
}

// fingerprint hashes a key to one byte. Different fingerprints mean
// different keys, so the scans test the small fingerprint array first and
// read the elements only for the few anchors that pass: for long periods
// every anchor is a cache miss, and the fingerprints of a list of millions
// still fit in the cache.
func fingerprint(k uint64) uint8 { return uint8((k * 0x9E3779B97F4A7C15) >> 56) }

// distinctGrams reports whether every substring of m keys of the list
// (which must have no holes) occurs only once. Then the list has no square
// of period m or more: its first m keys would occur again one period later.
// Substrings are compared by a rolling hash stored in 32 bits; a collision
// only makes it answer false, which is always safe.
func (l *fastList) distinctGrams(m int) bool {
	e := l.e
	count := len(e) - m + 1
	if count < 2 {
		return true
	}
	size := 1
	for size < 2*count {
		size <<= 1
	}
	if cap(l.grams) < size {
		l.grams = make([]uint32, size)
	}
	table := l.grams[:size]
	clear(table)
	mask := uint64(size - 1)
	const base = 0x9E3779B97F4A7C15
	pow := uint64(1) // base^m
	h := uint64(0)
	for i := 0; i < m; i++ {
		pow *= base
		h = h*base + mix(l.rs.key(e[i]))
	}
	for i := 0; ; i++ {
		v := uint32(h) | 1
		for j := (h >> 32) & mask; ; j = (j + 1) & mask {
			if table[j] == 0 {
				table[j] = v
				break
			}
			if table[j] == v {
				return false
			}
		}
		if i+m >= len(e) {
			return true
		}
		h = h*base + mix(l.rs.key(e[i+m])) - pow*mix(l.rs.key(e[i]))
	}
}

func mix(k uint64) uint64 {
	k *= 0xff51afd7ed558ccd
	return k ^ k>>33
}
