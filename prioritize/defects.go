package prioritize

import (
	"sort"
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Finding is one defect: the growing sites whose growth comes from the
// same responsible frame and loop, whatever their own classes (a helper
// that loops, reading three getters, called from four places, is one
// finding of three getters and four callers), fitted together.
type Finding struct {
	// Frame is the responsible frame of its top site (Site.Responsible),
	// Why how it was found (Why*).
	Frame tracefile.Frame `json:"frame"`
	Why   string          `json:"why"`
	// Loops is the dependency whose loop calls back (WhyDep).
	Loops string `json:"loops,omitempty"`
	// Clock is the loop paced by a clock that all its sites pass
	// through (Site.Clock): its counts measure the run's time, and it
	// ranks after the findings that are not.
	Clock string `json:"clock,omitempty"`
	// Getters are the getters its sites call (short names, in rank
	// order); Callers the distinct frames that call the responsible
	// frame (FrameString), none when it is the stack's last.
	Getters []string `json:"getters"`
	Callers []string `json:"callers"`
	// Counts are its sites' calls summed per sub-trace, fitted again
	// (Fit, Predicted at the findings' Target).
	Counts    []int   `json:"counts"`
	Fit       Fit     `json:"fit"`
	Predicted float64 `json:"predicted"`
	Sites     []*Site `json:"sites"`
}

// groupSites gathers the growing sites of f into findings.
func groupSites(f *Findings) []*Finding {
	var xs []float64
	for i, u := range f.Used {
		if u {
			xs = append(xs, f.Sizes[i])
		}
	}
	byKey := map[string]*Finding{}
	callers := map[findingName]bool{} // a set, as a finding may have thousands
	var out []*Finding
	var keys []string
	loops := map[string]bool{}
	for _, s := range f.Growing() {
		if s.Why == WhyLoop {
			loops[findingKey(s)] = true
		}
	}
	for _, s := range f.Growing() {
		k := findingKey(s)
		// A recursion whose calls are made inside a loop of the
		// function joins that loop's finding, when its outermost
		// activation's sites found it (go-diff's bisect loops in every
		// activation: doc/cases/godiff-reads.md).
		if lk := recursionLoopKey(s.ResponsibleFrame(), s.Why, s.LoopLine); loops[lk] {
			k = lk
		}
		d := byKey[k]
		if d == nil {
			d = &Finding{Frame: s.ResponsibleFrame(), Why: s.Why, Loops: s.Loops, Counts: make([]int, len(s.Counts))}
			byKey[k] = d
			out = append(out, d)
			keys = append(keys, k)
		}
		d.Sites = append(d.Sites, s)
		for i, c := range s.Counts {
			d.Counts[i] += c
		}
		if r := s.Responsible + 1; r < len(s.Frames) {
			c := FrameString(s.Frames[r])
			if k := (findingName{d, c}); !callers[k] {
				callers[k] = true
				d.Callers = append(d.Callers, c)
			}
		}
	}
	for _, d := range out {
		d.Clock = sharedClock(d.Sites)
		leadWithCalls(d)
		ys := make([]float64, len(d.Counts))
		for i, c := range d.Counts {
			ys[i] = float64(c)
		}
		d.Fit = f.memo.fit(xs, usedOf(ys, f.Used))
		if !d.Fit.Grows() { // the sum of growing sites grows; keep the class
			d.Fit = d.Sites[0].Fit
		}
	}
	capByLoop(f, out, keys, xs)
	for _, d := range out {
		d.Predicted = finite(d.Fit.At(f.Target))
	}
	f.rankFindings(out)
	return out
}

// sharedClock is the Clock of sites that all have one (the first's),
// else "".
func sharedClock(sites []*Site) string {
	for _, s := range sites {
		if s.Clock == "" {
			return ""
		}
	}
	return sites[0].Clock
}

// capByLoop gives a finding its loop's counts and fit when all the calls
// made inside its loop grow more slowly than its own: those of every
// site that goes through the loop (loopKeys), growing or not, whatever
// its own responsible frame, when the rest of them (those outside the
// finding) grow more slowly still: the share the finding gains is the
// share the rest loses. A finding's sites are a share of those calls,
// and no part of a sum outgrows the sum for long: its faster class is
// one of shares that shift with the size. (A small faster share beside
// a rest that keeps the whole's pace is left alone: it may be the
// faster class that will take the whole over.) Hugo's per-byte scan of
// what it writes reads quadratic under a list's later pages, which
// appear as lists pass the pager's size, while the scan of all pages is
// linear (doc/cases/hugo-related.md).
func capByLoop(f *Findings, out []*Finding, keys []string, xs []float64) {
	index := make(map[string]int, len(keys))
	for i, k := range keys {
		index[k] = i
	}
	totals := make([][]int, len(out))
	var seen []int
	for _, s := range f.Sites {
		seen = seen[:0]
		for _, k := range loopKeys(s) {
			i, ok := index[k]
			if !ok || hasInt(seen, i) {
				continue
			}
			seen = append(seen, i)
			if totals[i] == nil {
				totals[i] = make([]int, len(s.Counts))
			}
			for j, c := range s.Counts {
				totals[i][j] += c
			}
		}
	}
	for i, d := range out {
		ys := make([]float64, len(totals[i]))
		rest := make([]float64, len(totals[i]))
		for j, c := range totals[i] {
			ys[j], rest[j] = float64(c), float64(c-d.Counts[j])
		}
		fit := f.memo.fit(xs, usedOf(ys, f.Used))
		if !fit.Grows() || fit.Class >= d.Fit.Class {
			continue
		}
		if f.memo.fit(xs, usedOf(rest, f.Used)).Class < fit.Class {
			d.Counts, d.Fit = totals[i], fit
		}
	}
}

// loopKeys are the keys (findingKey) of the loops a site's calls are
// made in: its own and those of every frame that may be responsible.
func loopKeys(s *Site) []string {
	keys := []string{findingKey(s)}
	if k := recursionLoopKey(s.ResponsibleFrame(), s.Why, s.LoopLine); k != "" {
		keys = append(keys, k)
	}
	for _, c := range s.cands {
		keys = append(keys, defectKey(s.Frames[c.k], c.why, c.loop))
		if k := recursionLoopKey(s.Frames[c.k], c.why, c.loop); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// recursionLoopKey is the key of the loop of f's function around a
// recursion's calls (the loop its outermost activation is found by), ""
// when why is not a recursion or the calls are in no loop.
func recursionLoopKey(f tracefile.Frame, why string, loopLine int) string {
	if why != WhyRecursion || loopLine == 0 {
		return ""
	}
	return defectKey(f, WhyLoop, loopLine)
}

func hasInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// findingKey is what makes sites one finding: the responsible function
// and its loop (two loops one after the other in a function are two
// defects; when it was not found by a loop, sort or recursion, its call
// line). Not the sites' classes: the finding's class is its loop's, the
// fit of all its sites' calls together (groupSites). A loop's calls
// split over stacks whose shares shift with the size (Hugo's
// HasBytesWriter.Write, linear in the bytes written, under the first
// page of a list and under its later pages, as lists pass the pager's
// size) give one stack a faster class than the loop can keep: no part
// of a sum outgrows the sum for long.
func findingKey(s *Site) string {
	return defectKey(s.ResponsibleFrame(), s.Why, s.LoopLine)
}

// defectKey is findingKey of a frame found responsible by why, in a loop
// at loopLine.
func defectKey(f tracefile.Frame, why string, loopLine int) string {
	line := 0
	switch why {
	case WhyCaller, WhyDep:
		line = f.Line
	case WhyLoop:
		line = loopLine
	}
	return f.Func + "\x00" + strconv.Itoa(line)
}

// ResponsibleFrame is the site's responsible frame, at the line where it
// calls on toward the getter (nested loops in one function do not say
// which of them grows; the line of the call is inside all of them).
func (s *Site) ResponsibleFrame() tracefile.Frame {
	if s.Responsible <= 0 || s.Responsible >= len(s.Frames) {
		if len(s.Frames) > 1 {
			return s.Frames[1]
		}
		if len(s.Frames) == 1 {
			return s.Frames[0]
		}
		return tracefile.Frame{}
	}
	f := s.Frames[s.Responsible]
	if s.callLine > 0 {
		f.Line = s.callLine // the outer activation's call, inside the loop
	}
	return f
}

// leadWithCalls puts a finding's sites of calls (-calls: the SQL
// statements, the URLs) first, then its getters', then its field reads',
// each in rank order, so that the finding shows the repeated statement
// rather than a field read on the way to it. Without calls or reads the
// order is unchanged.
func leadWithCalls(d *Finding) {
	rank := func(s *Site) int {
		switch s.Getter.EventKind() {
		case tracefmt.KindCall:
			return 0
		case tracefmt.KindRead:
			return 2
		}
		return 1
	}
	sort.SliceStable(d.Sites, func(i, j int) bool { return rank(d.Sites[i]) < rank(d.Sites[j]) })
	d.Getters = d.Getters[:0]
	seen := map[string]bool{}
	for _, s := range d.Sites {
		if !seen[s.Name] {
			seen[s.Name] = true
			d.Getters = append(d.Getters, s.Name)
		}
	}
}

// findingName is a name (a caller) in a finding.
type findingName struct {
	d    *Finding
	name string
}
