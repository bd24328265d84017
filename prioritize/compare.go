package prioritize

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// The comparison of two runs (suncat diff and suncat check): the findings
// of a BASE summary and a HEAD summary, site by site, over the sub-traces
// they share.
//
//   - Sub-traces are matched by label (the k-th "TestFind/n=4" of BASE
//     with the k-th of HEAD), so two suncat test runs compare the tests
//     they share; only those with events on both sides count. Every
//     site's counts are fitted again on them (FitCounts), on the sizes
//     Sizes gives their labels (or the given sizes of a side that had
//     -sizes, HEAD's first), so both sides are fitted on the same points.
//   - Sites are matched by getter and the functions of their stacks,
//     never by line numbers, which move with unrelated edits: first by
//     the function names of the whole (folded) stack, then, for the sites
//     left, by the function of the responsible frame (the one the
//     findings name), then by that function alone, whatever the getter,
//     read or call (its loop), then, among the sites left of the same
//     kind, one whose responsible function is on the other's stack (the
//     loop that called N queries now calls a function that makes one):
//     a fix that replaces N queries by one reads as a class down. Sites
//     equal under a key are paired in the order of their lines.
//   - A new site grows new (GrowsNew) when its class is above constant
//     and above that of every site BASE had at its loop (the responsible
//     frame's function): a query added in a loop, an N+1.
//   - A class up is a regression only when it shows in the counts: at
//     the largest shared size HEAD calls more than noiseFactor times as
//     often as BASE, and at least minGain more. Otherwise it is noise
//     (Noise), so two runs of unchanged code cannot fail.

// noiseFactor: a class up whose counts at the largest size rise by no
// more than this factor is noise.
const noiseFactor = 1.25

// What changed at a site (SiteDiff.Change).
const (
	ChangeSame    = "same"       // the same class
	ChangeUp      = "class up"   // a faster-growing class
	ChangeDown    = "class down" // a slower-growing class
	ChangeNew     = "new site"   // in HEAD only
	ChangeGone    = "site gone"  // in BASE only
	ChangeNoClass = "no class"   // one side has too few sizes to tell
)

// A Comparison is the findings of two runs side by side.
type Comparison struct {
	HasBase bool      `json:"hasBase"` // false: HEAD alone (check -max without -base)
	Labels  []string  `json:"labels"`  // the shared sub-traces with events on both sides, in HEAD's order
	Sizes   []float64 `json:"sizes"`   // their sizes
	Target  float64   `json:"target"`  // the size predicted at: ten times the largest
	Note    string    `json:"note,omitempty"`
	// Sites: HEAD's sites in HEAD's order, then the sites gone.
	Sites []*SiteDiff `json:"sites"`
	// For two test suites, the comparison of each test family (see
	// compareFamilies): Family names it; Families are the families'
	// comparisons, whose sites are also in Sites.
	Family   string        `json:"family,omitempty"`
	Families []*Comparison `json:"families,omitempty"`
}

// A SiteDiff is one site in BASE and HEAD.
type SiteDiff struct {
	Getter string    `json:"getter"`          // package-qualified: "example.com/dir.(*Entry).Name"
	Name   string    `json:"name"`            // "(*Entry).Name"
	Func   string    `json:"func"`            // the function of the responsible frame
	Base   *SiteSide `json:"base"`            // nil: a new site (or no BASE)
	Head   *SiteSide `json:"head"`            // nil: the site is gone
	Change string    `json:"change"`          // Change*; "" without BASE
	Noise  bool      `json:"noise"`           // a class up that the counts do not bear out
	Kind   string    `json:"kind"`            // the kind of event: "getter", "read" or "call"
	Value  string    `json:"value,omitempty"` // its most repeated value (a call's: the statement, the URL)
	// GrowsNew: a new site that grows faster than constant and than
	// every site BASE had at its loop, whose class is LoopBase (ClassNone:
	// none there).
	GrowsNew bool   `json:"growsNew,omitempty"`
	LoopBase Class  `json:"loopBase,omitempty"`
	Family   string `json:"family,omitempty"` // the test family it was fitted in
	// named: Where names the family (a comparison of several).
	named bool
	// frames are the site's frames, the event's own first; where Where
	// would write two sites alike, it adds the frames that tell them
	// apart (shown: their indices, in order) as "t.go:15": the event's
	// line (a getter that reads one field on two lines, called from one
	// place), then callers further out (one loop reached from two calls).
	frames []tracefile.Frame
	shown  []int
}

// A SiteSide is a site in one run, fitted on the shared sub-traces.
type SiteSide struct {
	File      string  `json:"file"` // of the responsible frame
	Line      int     `json:"line"`
	LoopLine  int     `json:"loopLine,omitempty"` // the line of the loop around the call in that function (0: none)
	Counts    []int   `json:"counts"`             // calls in each shared sub-trace
	Fit       Fit     `json:"fit"`
	Predicted float64 `json:"predicted"` // Fit.At(Target)
	// Clock is the loop paced by a clock that the site's stack passes
	// through (Site.Clock): check does not fail on it.
	Clock string `json:"clock,omitempty"`
}

// Side returns HEAD's side, or BASE's for a site gone.
func (d *SiteDiff) Side() *SiteSide {
	if d.Head != nil {
		return d.Head
	}
	return d.Base
}

// Where names the site as check prints it: the getter and the
// responsible frame's file and line, "(*Entry).Name at dir.go:21".
func (d *SiteDiff) Where() string {
	s := d.Side()
	w := d.Name
	for _, k := range d.shown {
		if k == 0 {
			w += " (" + shortAt(d.frames[0]) + ")"
		}
	}
	w += " at " + filepath.Base(s.File) + ":" + strconv.Itoa(s.Line)
	for _, k := range d.shown {
		if k > 0 {
			w += " via " + shortAt(d.frames[k])
		}
	}
	if d.named {
		w += " in " + d.Family
	}
	return w
}

// Compare compares the findings of HEAD with those of BASE; base may be
// nil, and then HEAD's sites are fitted on all its sub-traces and none is
// new. run, when not "", keeps only the sub-traces whose label it
// matches, by the rules of go test -run (as Options.Run). It fails when a
// summary has no findings (schema version 1), when run does not compile,
// or when BASE and HEAD share no sub-trace (that run keeps). Test suites
// are fitted family by family again, reading the sources through src
// (as Options.Sources).
func Compare(base, head *Summary, run string, src *Sources) (*Comparison, error) {
	return CompareFitted(base, head, nil, run, src)
}

// CompareFitted is Compare given HEAD's test families as Families
// fitted them, for a caller that shows them too (suncat report): a suite
// is then fitted once. headFams nil: they are fitted here; they are used
// only when both runs are suites.
func CompareFitted(base, head *Summary, headFams []*Family, run string, src *Sources) (*Comparison, error) {
	if head.Findings == nil || (base != nil && base.Findings == nil) {
		return nil, fmt.Errorf("the summary has no findings (schema version 1; want %d)", SchemaVersion)
	}
	if base == nil {
		if err := runMatchesSome(head, run); err != nil {
			return nil, err
		}
	}
	if IsSuite(head) && (base == nil || IsSuite(base)) {
		return compareFamilies(base, head, headFams, run, src)
	}
	if base == nil {
		c, err := compare(head, head, run)
		if err != nil {
			return nil, err
		}
		c.HasBase = false
		for _, d := range c.Sites {
			d.Base, d.Change, d.Noise = nil, "", false
		}
		return c, nil
	}
	c, err := compare(base, head, run)
	if err != nil {
		return nil, err
	}
	c.HasBase = true
	return c, nil
}

// runMatchesSome returns an OptionError (as Options.Run's) when run, a
// pattern that compiles, keeps none of the sub-traces of s: a check of
// HEAD alone would otherwise pass on nothing, or blame a BASE there is
// not.
func runMatchesSome(s *Summary, run string) error {
	keep, err := compileRun(run)
	if err != nil || keep == nil || len(s.Groups) == 0 {
		return nil // compare reports a pattern that does not compile
	}
	for _, st := range s.Groups[0].SubTraces {
		if keep.match(st.Label) {
			return nil
		}
	}
	return noRunMatch(run, s.Groups[0].SubTraces)
}

func compare(base, head *Summary, run string) (*Comparison, error) {
	keep, err := compileRun(run)
	if err != nil {
		return nil, err
	}
	bi, hi, labels := sharedSubTraces(base, head, keep)
	if len(labels) == 0 && (len(subTraceLabels(base)) > 0 || len(subTraceLabels(head)) > 0) {
		that := ""
		if run != "" {
			that = fmt.Sprintf(" whose label matches %q", run)
		}
		return nil, fmt.Errorf("BASE and HEAD share no sub-trace with events%s (BASE: %s; HEAD: %s)",
			that, labelList(subTraceLabels(base)), labelList(subTraceLabels(head)))
	}
	sizes, err := sharedSizes(base.Findings, head.Findings, bi, hi, labels)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Labels: labels, Sizes: sizes}
	if _, top := minMax(sizes); len(sizes) > 0 {
		c.Target = 10 * top
	}
	if d := distinct(sizes); d < 3 {
		c.Note = fmt.Sprintf("%d distinct sizes in the shared sub-traces; growth needs 3", d)
	}
	side := func(s *Site, at []int) *SiteSide { return fitSide(s, at, sizes, c.Target) }
	pairs, gone := matchSites(base.Findings.Sites, head.Findings.Sites)
	for i, h := range head.Findings.Sites {
		d := newSiteDiff(h)
		d.Head = side(h, hi)
		if b := pairs[i]; b != nil {
			d.Base = side(b, bi)
		}
		d.classify(sizes)
		c.Sites = append(c.Sites, d)
	}
	for _, b := range gone {
		d := newSiteDiff(b)
		d.Base = side(b, bi)
		d.Change = ChangeGone
		c.Sites = append(c.Sites, d)
	}
	markNewGrowth(c.Sites)
	markAmbiguous(c.Sites)
	return c, nil
}

func newSiteDiff(s *Site) *SiteDiff {
	return &SiteDiff{Getter: s.Package + "." + s.Name, Name: s.Name, Func: distinctFrame(s).Func,
		Kind: string(s.Getter.EventKind()), Value: s.Value.Value, frames: s.Frames}
}

// shortAt is a frame's file and line: "t.go:15".
func shortAt(f tracefile.Frame) string {
	return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
}

// markAmbiguous has Where name, for the sites that it would otherwise
// write alike, the frames that tell them apart: the first that differs
// among them, then, among those still alike, the next, and so on.
func markAmbiguous(sites []*SiteDiff) {
	for again := true; again; {
		again = false
		alike := map[string][]*SiteDiff{}
		var keys []string
		for _, d := range sites {
			w := d.Where()
			if alike[w] == nil {
				keys = append(keys, w)
			}
			alike[w] = append(alike[w], d)
		}
		for _, w := range keys {
			if group := alike[w]; len(group) > 1 && showDiffering(group) {
				again = true
			}
		}
	}
}

// showDiffering adds to the sites of group, which Where writes alike,
// the first frame past those shown in which they differ, and reports
// whether there was one.
func showDiffering(group []*SiteDiff) bool {
	start := 0
	if n := len(group[0].shown); n > 0 {
		start = group[0].shown[n-1] + 1
	}
	for k := start; ; k++ {
		differ, past := false, true
		for _, d := range group {
			if k < len(d.frames) {
				past = false
				if k >= len(group[0].frames) || d.frames[k] != group[0].frames[k] {
					differ = true
				}
			} else if k < len(group[0].frames) {
				differ = true
			}
		}
		if past {
			return false
		}
		if differ {
			for _, d := range group {
				if k < len(d.frames) {
					d.shown = append(d.shown, k)
				}
			}
			return true
		}
	}
}

// markNewGrowth sets GrowsNew and LoopBase of the new sites among sites
// (one comparison's, BASE and HEAD fitted on the same sub-traces).
func markNewGrowth(sites []*SiteDiff) {
	atLoop := map[string]Class{}
	for _, d := range sites {
		if d.Base != nil && d.Base.Fit.Class > atLoop[d.Func] {
			atLoop[d.Func] = d.Base.Fit.Class
		}
	}
	for _, d := range sites {
		if d.Change != ChangeNew || d.Head == nil {
			continue
		}
		d.LoopBase = atLoop[d.Func]
		d.GrowsNew = d.Head.Fit.Class > ClassConstant && d.Head.Fit.Class > d.LoopBase
	}
}

// fitSide fits a site's counts in the sub-traces at (indices into its
// findings) on the shared sizes.
func fitSide(s *Site, at []int, sizes []float64, target float64) *SiteSide {
	f := distinctFrame(s)
	side := &SiteSide{File: f.File, Line: f.Line, Counts: make([]int, len(at)), Clock: s.Clock}
	if s.Responsible > 0 && s.Responsible < len(s.Frames) {
		side.LoopLine = s.LoopLine
	}
	ys := make([]float64, len(at))
	for k, i := range at {
		if i < len(s.Counts) {
			side.Counts[k] = s.Counts[i]
		}
		ys[k] = float64(side.Counts[k])
	}
	side.Fit = FitCounts(sizes, ys)
	side.Predicted = finite(side.Fit.At(target))
	return side
}

// classify sets Change and Noise from the two sides.
func (d *SiteDiff) classify(sizes []float64) {
	b, h := d.Base, d.Head
	switch {
	case b == nil:
		d.Change = ChangeNew
	case b.Fit.Class == ClassNone || h.Fit.Class == ClassNone:
		d.Change = ChangeNoClass
	case h.Fit.Class > b.Fit.Class:
		d.Change = ChangeUp
		hb, hh := atLargest(b.Counts, sizes), atLargest(h.Counts, sizes)
		d.Noise = hh <= noiseFactor*hb || hh-hb < minGain
	case h.Fit.Class < b.Fit.Class:
		d.Change = ChangeDown
	default:
		d.Change = ChangeSame
	}
}

// atLargest returns the largest count at the largest size.
func atLargest(counts []int, sizes []float64) float64 {
	_, top := minMax(sizes)
	best := 0.0
	for i, c := range counts {
		if sizes[i] == top && float64(c) > best {
			best = float64(c)
		}
	}
	return best
}

// subTraceLabels returns the labels of a summary's sub-traces (every
// group has the same ones).
func subTraceLabels(s *Summary) []string {
	if len(s.Groups) == 0 {
		return nil
	}
	out := make([]string, len(s.Groups[0].SubTraces))
	for i, st := range s.Groups[0].SubTraces {
		out[i] = st.Label
	}
	return out
}

// sharedSubTraces pairs the sub-traces with events of base and head by
// label (k-th occurrence with k-th occurrence), in head's order, keeping
// those keep matches (nil: all), and returns their indices on each side
// and the labels.
func sharedSubTraces(base, head *Summary, keep *runFilter) (bi, hi []int, labels []string) {
	byLabel := map[string][]int{}
	for i, l := range subTraceLabels(base) {
		if used(base.Findings, i) {
			byLabel[l] = append(byLabel[l], i)
		}
	}
	for i, l := range subTraceLabels(head) {
		if !used(head.Findings, i) || len(byLabel[l]) == 0 || !keep.match(l) {
			continue
		}
		bi = append(bi, byLabel[l][0])
		byLabel[l] = byLabel[l][1:]
		hi = append(hi, i)
		labels = append(labels, l)
	}
	return bi, hi, labels
}

func used(f *Findings, i int) bool { return i < len(f.Used) && f.Used[i] }

// sharedSizes returns the sizes of the shared sub-traces: a side's given
// sizes (HEAD's first), else those Sizes reads from the labels.
func sharedSizes(base, head *Findings, bi, hi []int, labels []string) ([]float64, error) {
	pick := func(f *Findings, at []int) []float64 {
		out := make([]float64, len(at))
		for k, i := range at {
			if i < len(f.Sizes) {
				out[k] = f.Sizes[i]
			}
		}
		return out
	}
	switch {
	case head.SizesFrom == SizesGiven:
		return pick(head, hi), nil
	case base.SizesFrom == SizesGiven:
		return pick(base, bi), nil
	}
	sizes, _, err := Sizes(labels, nil)
	return sizes, err
}

// matchSites pairs head's sites with base's: pairs[i] is the base site
// of head.Sites[i] (nil: new); gone are base's sites left, in base's
// order.
func matchSites(base, head []*Site) (pairs []*Site, gone []*Site) {
	pairs = make([]*Site, len(head))
	taken := make([]bool, len(base))
	for _, key := range []func(*Site) string{stackKey, frameKey, loopKey} {
		pairBy(base, head, key, pairs, taken)
	}
	pairEnclosed(base, head, pairs, taken)
	for i, b := range base {
		if !taken[i] {
			gone = append(gone, b)
		}
	}
	return pairs, gone
}

// pairBy pairs the unpaired sites of head with the untaken ones of base
// that have the same key, in the order of their responsible frames'
// lines.
func pairBy(base, head []*Site, key func(*Site) string, pairs []*Site, taken []bool) {
	open := map[string][]int{}
	for i, b := range base {
		if !taken[i] {
			k := key(b)
			open[k] = append(open[k], i)
		}
	}
	want := map[string][]int{}
	var keys []string
	for i, h := range head {
		if pairs[i] == nil {
			k := key(h)
			if _, ok := want[k]; !ok {
				keys = append(keys, k)
			}
			want[k] = append(want[k], i)
		}
	}
	for _, k := range keys {
		bs, hs := byLine(base, open[k]), byLine(head, want[k])
		for n := 0; n < len(bs) && n < len(hs); n++ {
			pairs[hs[n]] = base[bs[n]]
			taken[bs[n]] = true
		}
	}
}

// pairEnclosed pairs the unpaired sites of head with the untaken ones of
// base of the same kind of event where the responsible function of one
// is on the other's stack, in the order of head's sites.
func pairEnclosed(base, head []*Site, pairs []*Site, taken []bool) {
	for i, h := range head {
		if pairs[i] != nil {
			continue
		}
		for j, b := range base {
			if !taken[j] && b.Getter.EventKind() == h.Getter.EventKind() && (encloses(h, b) || encloses(b, h)) {
				pairs[i], taken[j] = b, true
				break
			}
		}
	}
}

// encloses reports whether the responsible function of s is on the stack
// of t (its getter's frame left out).
func encloses(s, t *Site) bool {
	fn := distinctFrame(s).Func
	if fn == "" || len(t.Frames) < 2 {
		return false
	}
	for _, f := range t.Frames[1:] {
		if f.Func == fn {
			return true
		}
	}
	return false
}

func byLine(sites []*Site, idx []int) []int {
	sort.SliceStable(idx, func(a, b int) bool {
		return distinctFrame(sites[idx[a]]).Line < distinctFrame(sites[idx[b]]).Line
	})
	return idx
}

// stackKey is a site's getter and the functions of its whole stack.
func stackKey(s *Site) string {
	var b strings.Builder
	b.WriteString(s.Package + "." + s.Name)
	for _, f := range s.Frames {
		b.WriteString("\x00" + f.Func)
	}
	return b.String()
}

// frameKey is a site's getter and the function of its responsible
// frame.
func frameKey(s *Site) string {
	return s.Package + "." + s.Name + "\x00" + distinctFrame(s).Func
}

// loopKey is the function of a site's responsible frame, whatever the
// getter, read or call: the loop that makes it grow.
func loopKey(s *Site) string {
	return distinctFrame(s).Func
}

// distinctFrame is the frame a comparison names a site by: its
// responsible frame (the findings' name for it), else its distinguishing
// frame.
func distinctFrame(s *Site) tracefile.Frame {
	if s.Responsible > 0 && s.Responsible < len(s.Frames) {
		return s.Frames[s.Responsible]
	}
	if s.Distinct >= 0 && s.Distinct < len(s.Frames) {
		return s.Frames[s.Distinct]
	}
	return tracefile.Frame{}
}
