package prioritize

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Family is a test or benchmark and those of its subtests whose names
// carry a size (TestFind/n=10, /n=100, ...; BenchmarkSort/size_1000):
// 'suncat test' fits each family on its own sizes, as one repeated
// action, so that the tests of a whole suite are not fitted against
// their order. A benchmark family is fitted per operation: each
// sub-benchmark's calls and time are divided by its b.N.
type Family struct {
	// Name is the parent of the sized subtests ("TestFind"); when one
	// parent has subtests named after two templates (n=1,k=2 and
	// n=1,k=4), or the size is not in the last element of the name
	// (size=64/fn=ExtractTo), the template follows with # for the size
	// ("TestFind/n=#,k=2", "BenchmarkBits/size=#/fn=ExtractTo").
	Name  string `json:"name"`
	Bench bool   `json:"bench,omitempty"`
	// Members are the labels of the sized subtests and Sizes their
	// sizes, in order of first appearance.
	Members []string  `json:"members"`
	Sizes   []float64 `json:"sizes"`
	// N is each member's b.N: the iterations of the run that is fitted
	// (the longest); 1 for tests.
	N []int `json:"n"`
	// Findings are fitted over the members: one point per size for a
	// benchmark (per op), one per sub-trace for a test.
	Findings *Findings `json:"findings"`
}

// An Unsized test is a top-level test or benchmark that recorded
// getter calls but is no family: Reason says what its subtests' names
// lack (UnsizedText words it: "no subtests", "subtests 0..4 are
// indexes, not sizes", ...).
type Unsized struct {
	Name   string
	Reason NoSizes
	// Indexes is the range of the subtests that are indexes ("0..4"),
	// for NoSizesIndexes.
	Indexes string
}

// NoSizes is why a test gives no sizes.
type NoSizes int

const (
	NoSizesNames   NoSizes = iota // its subtests' names carry no size
	NoSizesNoSubs                 // it has no subtests
	NoSizesIndexes                // its subtests are numbered 0..4, case_1..case_9: indexes
)

var (
	// benchN is the part of a sub-benchmark's label that gives b.N for
	// the run: " (b.N=1000)". It is no input size.
	benchN = regexp.MustCompile(` \(b\.N=([0-9]+)\)$`)
	// dupSuffix is what the testing package appends to a subtest name
	// already taken: "#01".
	dupSuffix = regexp.MustCompile(`#[0-9]+$`)
	// sizeWords name a size before its number; a subtest named
	// with one is sized even when its numbers count 1, 2, 3.
	sizeWords = regexp.MustCompile(`(?i)(^|[^a-z])(n|k|m|size|sz|len|length|count|num|items?|elements?|elems?|depth|width|height|rows?|cols?|keys?|nodes?|bytes?|words?|lines?|entries|records|kb|mb)[=:_ -]?#`)
	// typeWords glued to a number name a type or a format, not a size:
	// int64, uint8, float32, utf8, base64, ipv6, sha256, md5, x86.
	typeWords = regexp.MustCompile(`(?i)(^|[^a-z])(u?int|float|complex|utf|ucs|base|ipv|sha|md|crc|fnv|adler|latin|iso|x|v|h|http|tls|rfc|mp|vp|h26)#`)
	// caseWords name a case, not a size: case3, test_3, tc 3, #03.
	caseWords = regexp.MustCompile(`(?i)(^|[^a-z])(case|test|tc|example|input|subtest|scenario|idx|index|no)[=:_ #-]?#$|^##$`)
)

// BenchN splits a sub-benchmark's label into the benchmark's name and
// the b.N of its run: "BenchmarkSort/n=10 (b.N=1000)" gives
// "BenchmarkSort/n=10", 1000, true. Other labels come back as they are.
func BenchN(label string) (string, int, bool) {
	m := benchN.FindStringSubmatchIndex(label)
	if m == nil {
		return label, 0, false
	}
	n, err := strconv.Atoi(label[m[2]:m[3]])
	if err != nil || n < 1 {
		return label, 0, false
	}
	return label[:m[0]], n, true
}

// IsTestLabel reports whether a sub-trace's label names a test,
// benchmark, fuzz test or example (the labels of 'suncat test').
func IsTestLabel(label string) bool {
	top, _, _ := strings.Cut(label, "/")
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(top, p) {
			return true
		}
	}
	return false
}

// nameSize returns the size a subtest's name gives and its template (the
// name with that number replaced by #): "n=100" gives 100, "n=#";
// "size_8#01" (the testing package's suffix for a name taken twice) gives
// 8, "size_#". ok is false when the name has no number.
func nameSize(elem string) (size float64, template string, ok bool) {
	if d := dupSuffix.FindStringIndex(elem); d != nil && d[0] > 0 {
		elem = elem[:d[0]]
	}
	all := lastNumber.FindAllStringIndex(elem, -1)
	if len(all) == 0 {
		return 0, "", false
	}
	last := all[len(all)-1]
	n, err := strconv.ParseFloat(elem[last[0]:last[1]], 64)
	if err != nil {
		return 0, "", false
	}
	end := last[1]
	if m := unitSuffix.FindStringSubmatch(elem[end:]); m != nil {
		n *= unitScale[strings.ToUpper(m[1])]
		end += len(m[1]) + len(m[2])
	}
	return n, elem[:last[0]] + "#" + elem[end:], true
}

// unitSuffix is a multiple after a size, as benchmarks name their
// sizes: 1K, 32K, 1M, 4KiB, 2MB (1K = 1024).
var unitSuffix = regexp.MustCompile(`^([kKmMgG])(i?B?)(?:$|[^A-Za-z])`)

var unitScale = map[string]float64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

// spread reports whether sizes span a factor of 4 or more (from 0: up
// to 4 or more), as the sizes of a table test do (10, 100, 1000; 1, 2,
// 4, 8) and the numbers of a suite's cases do not (108, 109, 113): a
// name without a size word needs it to give sizes.
func spread(sizes []float64) bool {
	lo, hi := minMax(sizes)
	if lo <= 0 {
		return hi >= 4
	}
	return hi >= 4*lo
}

// zeroPadded is a number written with leading zeros, as case numbers
// are (007, Tabs/001), never sizes.
var zeroPadded = regexp.MustCompile(`(^|[^0-9.])0[0-9]`)

// countsCases reports whether sizes only count cases: taken together,
// 0, 1, 2, ... or 1, 2, 3, ..., in any order; or three or more numbers
// in a row from anywhere (12, 13, 14: a section's examples).
func countsCases(sizes []float64) bool {
	u := append([]float64(nil), sizes...)
	sort.Float64s(u)
	k := 0
	for i := range u {
		if i == 0 || u[i] != u[k-1] {
			u[k] = u[i]
			k++
		}
	}
	u = u[:k]
	if len(u) < 2 || (u[0] != 0 && u[0] != 1 && len(u) < 3) {
		return false
	}
	for i, s := range u {
		if s != u[0]+float64(i) {
			return false
		}
	}
	return true
}

// familyGroup is the subtests of one parent named after one template.
type familyGroup struct {
	// parent is the path above the element that gives the size;
	// template is that element with the size as # (elem), then the
	// rest of the path: "size=#/fn=ExtractTo".
	parent, template, elem string
	members                []string // distinct labels, first appearance order
	sizes                  []float64
	elems                  []string // each member's element that gives its size
	bench                  bool
	padded                 bool // a number written with leading zeros (007): a case's number
}

// sizeElem chooses the element of a subtest's path (below the top-level
// test) that gives its size: the last one whose number follows a size
// word (size=64 in size=64/fn=ExtractTo, not density=0.5 in
// size=64/density=0.5), else the last with a number that names no type,
// else the last with a number. It returns the element's index, size and
// template; ok is false when no element has a number.
func sizeElem(elems []string) (i int, size float64, tmpl string, ok bool) {
	i = -1
	other, any := -1, -1
	var sizes [3]float64
	var tmpls [3]string
	for k := len(elems) - 1; k >= 1; k-- {
		sz, t, has := nameSize(elems[k])
		if !has {
			continue
		}
		if any < 0 {
			any, sizes[2], tmpls[2] = k, sz, t
		}
		if other < 0 && !typeWords.MatchString(t) {
			other, sizes[1], tmpls[1] = k, sz, t
		}
		if sizeWords.MatchString(t) && !typeWords.MatchString(t) {
			return k, sz, t, true
		}
	}
	switch {
	case other >= 0:
		return other, sizes[1], tmpls[1], true
	case any >= 0:
		return any, sizes[2], tmpls[2], true
	}
	return -1, 0, "", false
}

// Families finds the families among a summary's sub-traces, fits each
// (opt's At and Stacks; Sizes is not used), and ranks them by their top
// finding: the growth class first, then the calls predicted. The
// top-level tests that recorded calls but form no family are returned
// apart, with the reason, in order of appearance.
func Families(s *Summary, opt Options) ([]*Family, []Unsized, error) {
	var subs []SubTrace
	if len(s.Groups) > 0 {
		subs = s.Groups[0].SubTraces
	}
	used, _, _ := subTraceTimes(s, len(subs))
	groups, unsized := familyGroups(subs, used)
	if len(groups) == 0 {
		return nil, unsized, nil
	}
	// Every site's calls in every sub-trace, once for all families: the
	// summary's own findings when they were fitted so.
	bopt := Options{Stacks: opt.Stacks, At: opt.At, Sources: opt.Sources}
	base := findingsFor(s, bopt)
	if base == nil {
		var err error
		if base, err = FindingsOf(s, nil, bopt); err != nil {
			return nil, nil, err
		}
	}
	idx := indexSubs(subs)
	memo := fitMemo{}
	var fams []*Family
	for _, g := range groups {
		f, err := fitFamily(s, base, g, opt, idx, memo)
		if err != nil {
			return nil, nil, err
		}
		fams = append(fams, f)
	}
	sort.SliceStable(fams, func(i, j int) bool { return familyBefore(fams[i], fams[j]) })
	return fams, unsized, nil
}

// familyGroups groups the labels of the sub-traces with events into
// families, and names the top-level tests that form none, with why.
func familyGroups(subs []SubTrace, used []bool) ([]*familyGroup, []Unsized) {
	order, tops, hasChildren := collectGroups(subs, used)
	dropParents(order, subs)
	out, why := sizedGroups(order)
	unsized := unsizedTops(tops, out, why, hasChildren)
	perParent := map[string]int{}
	for _, g := range out {
		perParent[g.parent]++
	}
	for _, g := range out {
		if perParent[g.parent] > 1 || strings.Contains(g.template, "/") {
			g.parent += "/" + g.template
		}
	}
	return out, unsized
}

// collectGroups groups the labels of the used sub-traces by the element
// that carries a number (sizeElem) and the rest of the name, in the order
// they first appear; it also returns the top-level tests in that order
// and which of them have subtests.
func collectGroups(subs []SubTrace, used []bool) (order []*familyGroup, tops []string, hasChildren map[string]bool) {
	byKey := map[string]*familyGroup{}
	topSeen := map[string]bool{}
	hasChildren = map[string]bool{}
	seen := map[string]bool{}
	for i, st := range subs {
		label, _, _ := BenchN(st.Label)
		top, _, _ := strings.Cut(label, "/")
		if !used[i] {
			continue
		}
		if !topSeen[top] {
			topSeen[top] = true
			tops = append(tops, top)
		}
		if !strings.Contains(label, "/") || seen[label] {
			continue
		}
		seen[label] = true
		hasChildren[top] = true
		elems := strings.Split(label, "/")
		k, size, tmpl, ok := sizeElem(elems)
		if !ok {
			continue
		}
		parent := strings.Join(elems[:k], "/")
		full := strings.Join(append([]string{tmpl}, elems[k+1:]...), "/")
		key := parent + "\x00" + full
		g := byKey[key]
		if g == nil {
			g = &familyGroup{parent: parent, template: full, elem: tmpl, bench: strings.HasPrefix(top, "Benchmark")}
			byKey[key] = g
			order = append(order, g)
		}
		g.members = append(g.members, label)
		g.sizes = append(g.sizes, size)
		g.elems = append(g.elems, elems[k])
		g.padded = g.padded || zeroPadded.MatchString(elems[k])
	}
	return order, tops, hasChildren
}

// dropParents leaves out of the groups the labels that are themselves
// parents of other sub-traces: their events are set-up, not a repetition.
func dropParents(order []*familyGroup, subs []SubTrace) {
	parents := parentLabels(subs)
	for _, g := range order {
		var m, el []string
		var sz []float64
		for i, l := range g.members {
			if !parents[l] {
				m = append(m, l)
				sz = append(sz, g.sizes[i])
				el = append(el, g.elems[i])
			}
		}
		g.members, g.sizes, g.elems = m, sz, el
	}
}

// sizedGroups keeps the groups whose numbers are sizes; for a top-level
// test with a group of indexes (0..4, case_1..case_9, 007) it says why.
func sizedGroups(order []*familyGroup) (out []*familyGroup, why map[string]string) {
	why = map[string]string{} // top -> the index range
	for _, g := range order {
		top, _, _ := strings.Cut(g.parent, "/")
		switch {
		case distinct(g.sizes) < 2 || typeWords.MatchString(g.elem):
			continue // one size named twice (n=8, n=8#01), or a type (int64)
		case caseWords.MatchString(g.elem) || g.padded ||
			!sizeWords.MatchString(g.elem) && (countsCases(g.sizes) || !spread(g.sizes)):
			if why[top] == "" {
				why[top] = indexRange(g)
			}
			continue
		}
		out = append(out, g)
	}
	return out, why
}

// unsizedTops lists the top-level tests with no family, and why.
func unsizedTops(tops []string, fams []*familyGroup, why map[string]string, hasChildren map[string]bool) []Unsized {
	hasFamily := map[string]bool{}
	for _, g := range fams {
		top, _, _ := strings.Cut(g.parent, "/")
		hasFamily[top] = true
	}
	var unsized []Unsized
	for _, top := range tops {
		if hasFamily[top] {
			continue
		}
		u := Unsized{Name: top, Reason: NoSizesNames, Indexes: why[top]}
		switch {
		case u.Indexes != "":
			u.Reason = NoSizesIndexes
		case !hasChildren[top]:
			u.Reason = NoSizesNoSubs
		}
		unsized = append(unsized, u)
	}
	return unsized
}

// indexRange names a group's subtests by the lowest and highest number:
// "0..4", "case_1..case_9".
func indexRange(g *familyGroup) string {
	lo, hi := 0, 0
	for i, s := range g.sizes {
		if s < g.sizes[lo] {
			lo = i
		}
		if s > g.sizes[hi] {
			hi = i
		}
	}
	return g.elems[lo] + ".." + g.elems[hi]
}

// A subIndex is the sub-traces of a suite by label (BenchN's, without
// the b.N), each label's in order, and each sub-trace's BenchN.
type subIndex struct {
	byLabel map[string][]int
	n       []int
	bench   []bool
	labels  []string
}

// indexSubs indexes the sub-traces, once for all the families.
func indexSubs(subs []SubTrace) *subIndex {
	x := &subIndex{byLabel: map[string][]int{}, n: make([]int, len(subs)), bench: make([]bool, len(subs)), labels: make([]string, len(subs))}
	for i, st := range subs {
		label, n, isBench := BenchN(st.Label)
		x.byLabel[label] = append(x.byLabel[label], i)
		x.labels[i], x.n[i], x.bench[i] = label, n, isBench
	}
	return x
}

// of returns the sub-traces of the labels, in sub-trace order.
func (x *subIndex) of(labels []string) []int {
	var out []int
	for _, l := range labels {
		out = append(out, x.byLabel[l]...)
	}
	sort.Ints(out)
	return out
}

// fitFamily fits one family: its members' sub-traces, a benchmark's per
// op (the run with the largest b.N of each member). The fits are
// remembered in memo.
func fitFamily(s *Summary, base *Findings, g *familyGroup, opt Options, idx *subIndex, memo fitMemo) (*Family, error) {
	subs := s.Groups[0].SubTraces
	sizeOf := map[string]float64{}
	for i, m := range g.members {
		sizeOf[m] = g.sizes[i]
	}
	// The sub-traces to fit and their divisors.
	type point struct {
		sub  int
		n    int
		size float64
	}
	var points []point
	best := map[string]int{} // member -> index in points (benchmarks)
	for _, i := range idx.of(g.members) {
		st := &subs[i]
		label, n, isBench := idx.labels[i], idx.n[i], idx.bench[i]
		size, ok := sizeOf[label]
		if !ok || st.Events == 0 && !anyEvents(s, i) {
			continue
		}
		if !isBench {
			points = append(points, point{i, 1, size})
			continue
		}
		if k, ok := best[label]; ok {
			if n > points[k].n {
				points[k] = point{i, n, size}
			}
			continue
		}
		best[label] = len(points)
		points = append(points, point{i, n, size})
	}
	f := &Findings{SizesFrom: SizesFromLabels, Stacks: base.Stacks, Target: opt.At, InputSizes: true, Test: true, memo: memo, ToEnd: base.ToEnd}
	fam := &Family{Name: g.parent, Bench: g.bench, Findings: f}
	for _, p := range points {
		f.Sizes = append(f.Sizes, p.size)
		f.Used = append(f.Used, base.Used[p.sub])
		f.TimeNs = append(f.TimeNs, base.TimeNs[p.sub]/int64(p.n))
		fam.Members = append(fam.Members, subs[p.sub].Label)
		fam.Sizes = append(fam.Sizes, p.size)
		fam.N = append(fam.N, p.n)
	}
	xs := usedOf(f.Sizes, f.Used)
	if f.Target <= 0 && len(xs) > 0 {
		_, hi := minMax(xs)
		f.Target = 10 * hi
	}
	noise := TimeNoise
	for _, p := range points {
		noise = math.Min(noise, TimeNoise/float64(p.n))
	}
	f.fitTime(xs, noise)
	for _, site := range base.Sites {
		perOp := make([]float64, len(points))
		total := 0
		for k, p := range points {
			perOp[k] = float64(site.Counts[p.sub]) / float64(p.n)
			total += site.Counts[p.sub]
		}
		if total == 0 {
			continue
		}
		c := *site
		c.Counts = make([]int, len(points))
		for k, x := range perOp {
			c.Counts[k] = int(math.Round(x))
		}
		c.Total = total
		c.Fit = f.memo.fit(xs, usedOf(perOp, f.Used))
		c.Predicted = finite(c.Fit.At(f.Target))
		f.Sites = append(f.Sites, &c)
	}
	f.rankSites()
	f.Findings = groupSites(f)
	return fam, nil
}

// anyEvents reports whether sub-trace i has events in any group.
func anyEvents(s *Summary, i int) bool {
	for _, g := range s.Groups {
		if i < len(g.SubTraces) && g.SubTraces[i].Events > 0 {
			return true
		}
	}
	return false
}

// familyBefore ranks families by their top finding: a faster class
// first, then more calls predicted; families where nothing grows last,
// in order.
func familyBefore(a, b *Family) bool {
	ta, tb := topFinding(a), topFinding(b)
	switch {
	case ta == nil || tb == nil:
		return ta != nil
	case ta.Fit.Class != tb.Fit.Class:
		return ta.Fit.Class > tb.Fit.Class
	}
	return ta.Predicted > tb.Predicted
}

func topFinding(f *Family) *Finding {
	if len(f.Findings.Findings) > 0 {
		return f.Findings.Findings[0]
	}
	return nil
}
