package prioritize

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// LagThreshold is the time per repetition a person notices: 100 ms, the
// threshold of perceptible lag of LagHunter and LagAlyzer.
const LagThreshold = 100e6 // ns

// Findings say which call sites grow with the input size, how fast, and
// what that means at a larger size. They are a view on top of the
// grammar levels: computed from the terminals' counts per sub-trace,
// summed over every goroutine group.
type Findings struct {
	// Sizes is the input size of each sub-trace (Summary sub-trace
	// order); SizesFrom says where they came from: SizesFromLabels,
	// SizesFromPositions or SizesGiven.
	Sizes     []float64 `json:"sizes"`
	SizesFrom string    `json:"sizesFrom"`
	// Used marks the sub-traces the fits use: those with events (an
	// empty sub-trace is not a repetition of anything).
	Used []bool `json:"used"`
	// Target is the size predictions are made at: Options.At, or ten
	// times the largest size.
	Target float64 `json:"target"`
	Stacks string  `json:"stacks"`         // StacksFolded or StacksWhole
	Note   string  `json:"note,omitempty"` // why nothing has a class ("2 distinct sizes; growth needs 3")
	// InputSizes: the sizes are input sizes (given, or numbers in labels
	// that name them), not the positions of repetitions of one action
	// (marks without a number, idle splits): growth per item, faster
	// than linear, ranks first (rank.go). Test: every sub-trace is a
	// test's, and setup frames (_test.go) rank last.
	InputSizes bool `json:"inputSizes"`
	Test       bool `json:"test,omitempty"`
	// The repeated action as a whole: the time of each sub-trace (first
	// to last event, ns; to the end of a whole run's main, or of a test's
	// or benchmark run's span, where the trace marks it: ToEnd), fitted
	// like the counts, its prediction at
	// Target, and the size at which it passes LagThreshold (0: it does
	// not grow, or not below 10^15).
	TimeNs          []int64 `json:"timeNs"`
	ToEnd           bool    `json:"toEnd,omitempty"`
	Time            Fit     `json:"time"`
	TimePredictedNs float64 `json:"timePredictedNs"`
	LagSize         float64 `json:"lagSize"`
	// Sites: every call site, the growing ones first (ranked as the
	// findings are, rank.go), then the others by calls.
	Sites []*Site `json:"sites"`
	// Findings: the growing sites, one per defect: those with the same
	// responsible frame and class together, the defect first (rank.go:
	// setup last, growth per item first with input sizes, then by
	// predicted count at Target).
	Findings []*Finding `json:"findings"`
	// memo keeps the fits of a suite's families (Families): nil fits
	// every series.
	memo fitMemo
	// cal indexes the sites' first candidates while refineResponsible
	// runs (calibration).
	cal calibrations
	// growing holds, while refineResponsible runs, the bare loops some
	// growing site goes through, each with the frames further out
	// (flatLoop).
	growing map[movedKey]bool
	// actions names the actions whose sizes the labels mix (MixedText),
	// none when they name one.
	actions []string
}

// A Site is one getter called from one place in the code, counted over
// all goroutines in each sub-trace.
type Site struct {
	Getter  tracefile.Getter `json:"getter"`
	Name    string           `json:"name"` // the getter: "(*Stop).Name"
	Package string           `json:"package"`
	// Frames is the site's stack (getter first): folded (FoldStack)
	// unless Options.Stacks is "whole", cut to Options.Frames.
	Frames []tracefile.Frame `json:"frames"`
	// Distinct is the index in Frames of the frame that sets the site
	// apart from the getter's other sites (1, the caller, when it is the
	// only one); Frames[1:Distinct+1] is the stack down to it.
	Distinct int `json:"distinct"`
	// Responsible is the index in Frames of the responsible frame, the
	// function whose loop makes the calls grow (responsible.go); Why
	// says how it was found (WhyLoop, WhySort, WhyRecursion, WhyCaller)
	// and LoopLine is the line of the outermost loop of that function
	// around the call (0: not a loop).
	Responsible int    `json:"responsible"`
	Why         string `json:"why"`
	LoopLine    int    `json:"loopLine,omitempty"`
	// Loops names, for WhyDep, the dependency's function whose loop
	// calls back into the program ("goquery.(*Selection).Each").
	Loops string `json:"loops,omitempty"`
	// Clock is, when the stack passes through a loop paced by a clock
	// from the responsible frame outward (clock.go), that loop's
	// "file.go:LINE": its counts measure the run's time.
	Clock  string `json:"clock,omitempty"`
	Counts []int  `json:"counts"` // calls in each sub-trace
	Total  int    `json:"total"`
	// Cut counts the calls among Total whose stacks were cut at the
	// writer's depth limit (Terminal.Cut): a site of only such calls is
	// counted with the sites its frames begin (mergeCut).
	Cut       int        `json:"cut,omitempty"`
	Fit       Fit        `json:"fit"`
	Predicted float64    `json:"predicted"` // Fit.At(Target)
	Value     ValueCount `json:"value"`     // its most repeated value, over all sub-traces
	Terminals []TermRef  `json:"terminals"` // the terminals whose calls it sums
	values    map[string]int
	cands     []candidate         // the frames that may be responsible, innermost first
	whole     [][]tracefile.Frame // the whole stacks of its terminals
	folded    []int               // the frames folding took out of its terminals' stacks, each number once, in order
	callLine  int                 // the responsible frame's line when folding took it out (a recursion through a loop), else 0
}

// addFolded notes that folding took n frames out of a terminal's stack.
func (s *Site) addFolded(n int) {
	if i, ok := slices.BinarySearch(s.folded, n); !ok {
		s.folded = slices.Insert(s.folded, i, n)
	}
}

// A TermRef names a terminal of the summary: Summary.Groups[Group]'s
// terminal with that letter.
type TermRef struct {
	Group  int    `json:"group"`
	Letter string `json:"letter"`
}

// Where is the distinguishing frame, as FrameString prints it.
func (s *Site) Where() string {
	if s.Distinct < len(s.Frames) {
		return FrameString(s.Frames[s.Distinct])
	}
	return ""
}

// TimeNs64 is TimeNs as float64s.
func (f *Findings) TimeNs64() []float64 {
	out := make([]float64, len(f.TimeNs))
	for i, t := range f.TimeNs {
		out[i] = float64(t)
	}
	return out
}

// Growing returns the growing sites, ranked.
func (f *Findings) Growing() []*Site {
	var out []*Site
	for _, s := range f.Sites {
		if s.Fit.Grows() {
			out = append(out, s)
		}
	}
	return out
}

// findSites sums the terminals of every group by site.
func findSites(s *Summary, stacks string, src *sources) []*Site {
	byKey := map[hashKey]*Site{}
	var sites []*Site
	var folded []tracefile.Frame // scratch: a site copies its own
	seen := map[string]bool{}
	for gi, g := range s.Groups {
		for _, t := range g.Terminals {
			fs, away := t.Frames, 0
			switch {
			case stacks == StacksWhole:
			case len(fs) == 0:
				fs = nil // FoldStack's
			default:
				folded = foldStack(folded[:0], seen, fs)
				away = len(fs) - len(folded)
				fs = folded
				if hookedCall(t.Getter) {
					fs = userFrames(fs)
				}
			}
			key := siteKey(t, fs)
			site := byKey[key]
			if site == nil {
				if stacks != StacksWhole && fs != nil {
					fs = slices.Clone(fs)
				}
				site = &Site{Getter: t.Getter, Name: t.Name, Package: t.Getter.Package, Frames: fs,
					Counts: make([]int, t.NumSubs()), values: map[string]int{}}
				byKey[key] = site
				sites = append(sites, site)
			}
			for _, c := range t.Subs() {
				site.Counts[c.Sub] += c.Calls
			}
			site.Total += t.Total
			if t.Cut {
				site.Cut += t.Total
			}
			site.Terminals = append(site.Terminals, TermRef{Group: gi, Letter: t.Letter})
			site.whole = append(site.whole, t.Frames)
			site.addFolded(away)
			for _, v := range t.Values {
				site.addValue(v)
			}
		}
	}
	if stacks == StacksFolded {
		sites = mergeCut(sites)
	}
	byGetter := map[string][]*Site{}
	var getters []string
	for _, site := range sites {
		k := site.Package + "." + site.Name
		if _, ok := byGetter[k]; !ok {
			getters = append(getters, k)
		}
		byGetter[k] = append(byGetter[k], site)
	}
	for _, k := range getters {
		group := byGetter[k]
		stacks := make([][]tracefile.Frame, len(group))
		for i, site := range group {
			stacks[i] = site.Frames
		}
		for i, d := range distinguishing(stacks) {
			group[i].Distinct = d
		}
	}
	deep := recursionDepths(sites, stacks == StacksWhole)
	deps := newDepMemo(sites)
	for _, site := range sites {
		site.cands = src.candidates(site, site.whole, deep, deps)
		site.whole = nil
		site.setResponsible()
	}
	return sites
}

// recursionDepths returns, for each function that some whole stack of
// the sites holds twice or more, the most activations of it that one
// stack holds. Folded (not whole), a site whose stacks lost no frame to
// folding repeats no function and is skipped.
func recursionDepths(sites []*Site, whole bool) map[string]int {
	deep := map[string]int{}
	count := map[string]int{}
	for _, site := range sites {
		if !whole && len(site.folded) == 1 && site.folded[0] == 0 {
			continue // folding took no frame out of its stacks: none repeats a function
		}
		for _, st := range site.whole {
			clear(count)
			for _, f := range st {
				count[f.Func]++
			}
			for fn, n := range count {
				if n >= 2 && n > deep[fn] {
					deep[fn] = n
				}
			}
		}
	}
	return deep
}

// addValue counts a value; Value keeps the most repeated one (the first
// seen of those tied).
func (s *Site) addValue(v ValueCount) {
	s.values[v.Value] += v.Count
	if n := s.values[v.Value]; n > s.Value.Count {
		s.Value = ValueCount{Value: v.Value, Count: n}
	}
}

// buildFindings computes the findings of a built summary, and notes
// the options they were fitted with (Families reuses them).
func buildFindings(s *Summary, opt Options) (*Findings, error) {
	f, err := FindingsOf(s, nil, opt)
	if err == nil {
		s.fitted = &opt
	}
	return f, err
}

// findingsFor returns s.Findings when they are what FindingsOf(s, nil,
// opt) gives, fitted by buildFindings with the same sizes, stacks,
// target and sources; nil otherwise (a summary read from JSON, or
// other options).
func findingsFor(s *Summary, opt Options) *Findings {
	f := s.fitted
	if f == nil || !fitShortcuts || s.Findings == nil || len(f.Sizes) > 0 || len(opt.Sizes) > 0 ||
		f.At != opt.At || f.Sources != opt.Sources || stacksOption(f.Stacks) != stacksOption(opt.Stacks) {
		return nil
	}
	return s.Findings
}

// stacksOption is Options.Stacks, StacksFolded when empty.
func stacksOption(s string) string {
	if s == "" {
		return StacksFolded
	}
	return s
}

// FindingsOf computes the findings of a built summary over the
// sub-traces whose labels keep accepts (all when keep is nil), with
// opt's Sizes (one per kept sub-trace), At and Stacks: suncat test fits
// each table test (TestFind/n=1, /n=2, ...) on its own. A label that is
// the parent of other labels (TestFind, beside TestFind/n=1) is left out:
// its own events are set-up, not a repetition.
func FindingsOf(s *Summary, keep func(label string) bool, opt Options) (*Findings, error) {
	var labels []SubTrace
	if len(s.Groups) > 0 {
		labels = s.Groups[0].SubTraces
	}
	kept := make([]bool, len(labels))
	var names []string
	parents := parentLabels(labels)
	for i, l := range labels {
		if (keep == nil || keep(l.Label)) && !parents[l.Label] {
			kept[i] = true
			names = append(names, l.Label)
		}
	}
	keptSizes, from, err := Sizes(names, opt.Sizes)
	if err != nil {
		return nil, err
	}
	sizes := make([]float64, len(labels))
	for i, k := 0, 0; i < len(labels); i++ {
		if kept[i] {
			sizes[i] = keptSizes[k]
			k++
		}
	}
	stacks := opt.Stacks
	if stacks == "" {
		stacks = StacksFolded
	}
	if stacks != StacksFolded && stacks != StacksWhole {
		return nil, fmt.Errorf("-stacks %q: want %s or %s", opt.Stacks, StacksFolded, StacksWhole)
	}
	f := &Findings{Sizes: sizes, SizesFrom: from, Stacks: stacks, Target: opt.At,
		InputSizes: inputSizes(from, names, keptSizes), Test: testLabels(names)}
	if from == SizesFromLabels && !f.Test { // a suite's families are its actions (Families)
		f.actions = mixedActions(names)
	}
	f.Used, f.TimeNs, f.ToEnd = subTraceTimes(s, len(labels))
	for i := range f.Used {
		f.Used[i] = f.Used[i] && kept[i]
	}
	var xs []float64
	for i, u := range f.Used {
		if u {
			xs = append(xs, sizes[i])
		}
	}
	if f.Target <= 0 {
		_, hi := minMax(xs)
		f.Target = 10 * hi
		if len(xs) == 0 {
			f.Target = 0
		}
	}
	f.fitTime(xs, TimeNoise)
	f.Sites = findSites(s, stacks, opt.Sources.cache())
	for _, site := range f.Sites {
		counts := make([]float64, len(site.Counts))
		for i, c := range site.Counts {
			counts[i] = float64(c)
		}
		site.Fit = FitCounts(xs, usedOf(counts, f.Used))
		site.Predicted = finite(site.Fit.At(f.Target))
	}
	refineResponsible(f, xs)
	markClock(f, opt.Sources.cache())
	f.rankSites()
	f.Findings = groupSites(f)
	return f, nil
}

// fitTime sets Note when the sizes xs (those of the used sub-traces)
// cannot give a class, and fits the time per sub-trace on them: Time,
// its prediction at Target and the size at which it passes LagThreshold.
func (f *Findings) fitTime(xs []float64, noise float64) {
	if d := distinct(xs); d < 3 {
		f.Note = fmt.Sprintf("%d distinct sizes; growth needs 3", d)
	}
	f.Time = f.memo.fitTimes(xs, usedOf(f.TimeNs64(), f.Used), noise)
	f.TimePredictedNs = finite(f.Time.At(f.Target))
	if lo, _ := minMax(xs); f.Time.Grows() {
		f.LagSize, _ = f.Time.Reaches(LagThreshold, lo)
	}
}

// TimeNoise is how much a time per sub-trace must rise, from the
// smallest size to the largest, to grow: the scheduler, the garbage
// collector and the timer move a run of a few milliseconds by as much
// (561µs|1.15ms|981µs|2.57ms is no exponential). A benchmark's time per
// op is its run's time over b.N: its noise is TimeNoise/b.N.
const TimeNoise = 5e6 // ns

// fitTimes fits times (ns) per size like counts, and takes the growth
// back when the fit rises less than noise over the sizes: constant,
// with a Note that says so.
func fitTimes(xs, ts []float64, noise float64) Fit {
	return fitMemo(nil).fitTimes(xs, ts, noise)
}

// fitTimes is fitTimes with the fits remembered in m.
func (m fitMemo) fitTimes(xs, ts []float64, noise float64) Fit {
	fit := m.fitTime(xs, ts)
	if !fit.Grows() {
		if f2, ok := m.afterWarmUp(xs, ts, noise); ok {
			return f2
		}
		return fit
	}
	lo, hi := minMax(xs)
	if rise := fit.At(hi) - fit.At(lo); rise < noise {
		return Fit{Class: ClassConstant, A: mean(ts), Outlier: -1,
			Note: fmt.Sprintf("within the noise (rises %s, under %s)", Duration(rise), Duration(noise))}
	}
	if last, ok := lastOnly(xs, ts, noise); ok {
		return Fit{Class: ClassConstant, A: mean(ts), Outlier: -1,
			Note: fmt.Sprintf("it rises at the largest size only (%s): one point is no class", Duration(last))}
	}
	return fit
}

// afterWarmUp fits times whose first point, at the smallest size, is
// slower than the second (a cold start: caches, the first page faults)
// without it, when the others grow by more than noise: 72ms|64ms|538ms|
// 1.49s read constant, its fall from the first to the second outweighing
// a rise of twenty times over eight times the size. The fit notes the
// point set aside (Outlier). It reports whether the rest grows so.
func (m fitMemo) afterWarmUp(xs, ts []float64, noise float64) (Fit, bool) {
	first, second := -1, -1
	for i, x := range xs {
		switch {
		case first < 0 || x < xs[first]:
			first, second = i, first
		case x == xs[first]:
			return Fit{}, false // the smallest size twice: no one first point
		case second < 0 || x < xs[second]:
			second = i
		}
	}
	if first < 0 || second < 0 || ts[first] <= ts[second] {
		return Fit{}, false
	}
	x2, t2 := without(xs, first), without(ts, first)
	if distinct(x2) < 3 {
		return Fit{}, false
	}
	fit := m.fitTime(x2, t2)
	lo, hi := minMax(x2)
	if !fit.Grows() || fit.At(hi)-fit.At(lo) < noise {
		return Fit{}, false
	}
	if _, ok := lastOnly(x2, t2, noise); ok {
		return Fit{}, false
	}
	fit.Outlier = first
	return fit, true
}

// lastOnly reports whether times ts at sizes xs rise at the largest
// size only: the others, at three sizes or more, lie within noise of
// each other. One slow run is enough for that (a -reads run of a server
// printed 4.21ms|4.01ms|5.36ms|46.81ms, "exponential, forever at 800").
// It returns the time at the largest size.
func lastOnly(xs, ts []float64, noise float64) (float64, bool) {
	rx, rt, last := splitLargest(xs, ts)
	lo, top := minMax(rt)
	return last, distinct(rx) >= 3 && top-lo < noise
}

// splitLargest returns the points at sizes other than the largest, and
// the largest value at the largest size: what lastOnly (times) and
// lastJump (counts) compare.
func splitLargest(xs, ys []float64) (rx, ry []float64, last float64) {
	_, hi := minMax(xs)
	for i, x := range xs {
		if x == hi {
			last = math.Max(last, ys[i])
			continue
		}
		rx, ry = append(rx, x), append(ry, ys[i])
	}
	return rx, ry, last
}

// parentLabels returns the labels that are parents of sub-traces: those
// that another sub-trace's label starts with, followed by '/' (TestFind
// of TestFind/n=1, and TestA and TestA/b of TestA/b/c).
func parentLabels(subs []SubTrace) map[string]bool {
	parents := map[string]bool{}
	for _, st := range subs {
		for k := strings.IndexByte(st.Label, '/'); k >= 0; {
			parents[st.Label[:k]] = true
			next := strings.IndexByte(st.Label[k+1:], '/')
			if next < 0 {
				break
			}
			k += 1 + next
		}
	}
	return parents
}

// subTraceTimes returns which sub-traces have events and the time from
// the first to the last event of each, over all groups; to its end mark
// (main returned, a test's span ended: Summary.ends) where that comes
// after the last event (work that records nothing after it: a filter
// over the results), and then whether any did.
func subTraceTimes(s *Summary, n int) ([]bool, []int64, bool) {
	used := make([]bool, n)
	start := make([]int64, n)
	end := make([]int64, n)
	for i := range start {
		start[i] = -1
	}
	for _, g := range s.Groups {
		for i, st := range g.SubTraces {
			if st.Events == 0 {
				continue
			}
			used[i] = true
			if start[i] < 0 || st.Start < start[i] {
				start[i] = st.Start
			}
			if st.End > end[i] {
				end[i] = st.End
			}
		}
	}
	times := make([]int64, n)
	toEnd := false
	for i := range times {
		if used[i] && i < len(s.ends) && s.ends[i] > end[i] {
			end[i], toEnd = s.ends[i], true
		}
		if used[i] {
			times[i] = end[i] - start[i]
		}
	}
	return used, times, toEnd
}

// finite keeps a prediction encodable: +Inf (an exponential far out)
// becomes the largest float64, NaN 0.
func finite(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1):
		return -math.MaxFloat64
	}
	return x
}

func usedOf(xs []float64, used []bool) []float64 {
	var out []float64
	for i, u := range used {
		if u {
			out = append(out, xs[i])
		}
	}
	return out
}
