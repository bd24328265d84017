package prioritize

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// This file is the one place findings become text: the summary's
// Findings section, the viewer's lines (tui), diff's table and check's
// lines, and suncat test's closing lines all call it, so a class, a count,
// a prediction or a time reads the same wherever it is shown. Model:
// pprof's internal/report, where every output format is generated from
// one report.

// ClassText writes a growth class as every output shows it: in words
// ("constant", "log", "linear", "n log n", "quadratic", "cubic",
// "exponential"), the names suncat check -max reads.
func ClassText(c Class) string { return c.Word() }

// FindingsText renders the findings as the summary's opening section:
// a heading that says where the sizes came from, then the top growing
// sites (all when top ≤ 0), two lines each, and the time per sub-trace;
// one line when nothing grows.
func FindingsText(f *Findings, top int) string {
	var b strings.Builder
	if f == nil {
		return "== Findings: no sub-traces\n"
	}
	if none := NoneText(f); none != "" {
		fmt.Fprintf(&b, "== Findings: %s\n", none)
		if note := f.FewEventsNote(); note != "" && f.Note == "" {
			b.WriteString("    " + note + "\n")
		}
		if mixed := MixedText(f); mixed != "" {
			b.WriteString("    " + mixed + "\n")
		}
		if apart := ApartText(f); apart != "" {
			b.WriteString("    " + apart + "\n")
		}
		if unseen := UnseenText(f); unseen != "" {
			b.WriteString(TimeText(f) + "\n    " + unseen + "\n")
		}
		for _, note := range []string{JumpText(f), UnevenText(f)} {
			if note != "" {
				b.WriteString("    " + note + "\n")
			}
		}
		return b.String()
	}
	b.WriteString("== Findings: " + GrowText(f) + "\n")
	if mixed := MixedText(f); mixed != "" {
		b.WriteString("    " + mixed + "\n")
	}
	if apart := ApartText(f); apart != "" {
		b.WriteString("    " + apart + "\n")
	}
	b.WriteString(FindingsList(f, top))
	b.WriteString(TimeText(f) + "\n")
	if unseen := UnseenText(f); unseen != "" {
		b.WriteString("    " + unseen + "\n")
	}
	for _, note := range []string{JumpText(f), UnevenText(f)} {
		if note != "" {
			b.WriteString("    " + note + "\n")
		}
	}
	return b.String()
}

// JumpText names the call sites whose counts jump at the largest size
// only (lastJump: no class, so no finding): how many, and the one with
// the most calls at that size, with its counts.
func JumpText(f *Findings) string {
	return noteSites(f, lastJumpNote, "rises at the largest size only (one point is no class)", "rise at the largest size only (one point is no class)")
}

// UnevenText names the call sites whose counts a class faster than
// linear fitted but that rise and fall unevenly (FitCounts: no class,
// so no finding), as JumpText does.
func UnevenText(f *Findings) string {
	return noteSites(f, unevenNote, "rises and falls unevenly (no class)", "rise and fall unevenly (no class)")
}

// noteSites says how many sites' fits have the note, and names the one
// with the most calls at the largest size, with its counts; "" for none.
func noteSites(f *Findings, note, one, many string) string {
	n, top := 0, (*Site)(nil)
	for _, s := range f.Sites {
		if s.Fit.Note != note || len(s.Counts) == 0 {
			continue
		}
		n++
		if top == nil || s.Counts[len(s.Counts)-1] > top.Counts[len(top.Counts)-1] {
			top = s
		}
	}
	if n == 0 {
		return ""
	}
	where := top.Name
	if len(top.Frames) > 0 {
		where += fmt.Sprintf(" at %s:%d", filepath.Base(top.Frames[0].File), top.Frames[0].Line)
	}
	verb := many
	if n == 1 {
		verb = one
	}
	return fmt.Sprintf("%s %s: %s %s", plural(n, "call site"), verb, where, CountList(top.Counts))
}

// ApartText says, when most call sites were called in one used
// sub-trace only, and such sites are in two sub-traces or more, that the
// sub-traces share few call sites, as traces recorded by builds of the
// program with its lines moved do: each build names its call sites
// apart, every site is seen at one size, and nothing grows (the cobra
// trial, doc/cases/cobra-reads.md). A test suite's sub-traces, each
// a test's own code, are not read so. "" otherwise.
func ApartText(f *Findings) string {
	if f == nil || f.Test {
		return ""
	}
	used, called, alone := 0, 0, 0
	for _, u := range f.Used {
		if u {
			used++
		}
	}
	where := map[int]bool{}
	for _, s := range f.Sites {
		in, at := 0, -1
		for i, u := range f.Used {
			if u && i < len(s.Counts) && s.Counts[i] > 0 {
				in, at = in+1, i
			}
		}
		if in == 0 {
			continue
		}
		called++
		if in == 1 {
			alone++
			where[at] = true
		}
	}
	if used < 3 || len(where) < 2 || 2*alone < called {
		return ""
	}
	return fmt.Sprintf("%d of %d call sites were called in one sub-trace only: the sub-traces share few call sites (a call site is its stack's functions and lines); builds whose lines moved name theirs apart: record every size with one build", alone, called)
}

// UnseenText says, when the time per sub-trace grows two classes or more
// faster than every finding (quadratic against linear at most, cubic
// against n log n) and than the sizes from end to end, or grows at all
// while no call site does and at least half as much as the sizes from
// end to end, that what grows is work no call site recorded: "the
// time grows as quadratic, no finding faster than linear: what grows is
// in code that records nothing (the standard library, dependencies not
// instrumented with -deps, code with no getter or field read), called
// from the findings' frames or near them; a CPU profile at the largest
// size shows where". "" otherwise.
func UnseenText(f *Findings) string {
	if f == nil || !f.Time.Grows() {
		return ""
	}
	top := ClassNone
	for _, d := range f.Findings {
		if d.Fit.Grows() && d.Fit.Class > top {
			top = d.Fit.Class
		}
	}
	t, x := timeRatio(f)
	switch {
	case top == ClassNone && f.Time.Class >= ClassLinear && t >= x/2:
		// Nothing grows, and the time keeps up with the sizes (a diff's
		// loops over local slices, doc/cases/godiff-reads.md).
	case f.Time.Class < ClassQuadratic || t <= x || top >= f.Time.Class-1:
		return ""
	}
	than := "no call site grows"
	if top > ClassNone {
		than = "no finding faster than " + ClassText(top)
	}
	loops := ""
	if !f.recorded().turns {
		loops = ", and -loops records every loop's turns (a loop over a local slice reads no field)"
	}
	return fmt.Sprintf("the time grows as %s, %s: what grows is in code that records nothing "+
		"(the standard library, dependencies not instrumented with -deps, code with no getter or field read), "+
		"called from the findings' frames or near them; a CPU profile at the largest size shows where%s", ClassText(f.Time.Class), than, loops)
}

// recorded is what the findings' events hold (recordedOf their sites'
// getters).
func (f *Findings) recorded() recorded {
	gs := make([]tracefile.Getter, len(f.Sites))
	for i, s := range f.Sites {
		gs[i] = s.Getter
	}
	return recordedOf(gs)
}

// timeOutgrowsSizes reports whether the time per sub-trace at the largest
// size, over that at the smallest (the mean of each), is more than the
// sizes' ratio: grown faster than linear from end to end. A fit can read
// a noisy run's last point as quadratic or cubic while the time grew
// less than the sizes did (a flat control's 135ms|134ms|149ms|303ms over
// 8x the size, doc/cases/mockery-reads.md), which says nothing of work
// no call site recorded.
func timeOutgrowsSizes(f *Findings) bool {
	t, x := timeRatio(f)
	return t > x
}

// timeRatio returns the time per sub-trace at the largest size over
// that at the smallest (the mean of each), and the sizes' ratio; +Inf
// and 1 where there is no ratio to take.
func timeRatio(f *Findings) (t, x float64) {
	var xs, ts []float64
	for i, u := range f.Used {
		if u && i < len(f.Sizes) && i < len(f.TimeNs) {
			xs, ts = append(xs, f.Sizes[i]), append(ts, float64(f.TimeNs[i]))
		}
	}
	lo, hi := minMax(xs)
	atLo, atHi := meanAt(xs, ts, lo), meanAt(xs, ts, hi)
	if lo <= 0 || atLo <= 0 {
		return math.Inf(1), 1
	}
	return atHi / atLo, hi / lo
}

// GrowText counts what grows and says the order: "4 of 10 call sites
// grow, 2 findings (sizes from labels: 1, 2, 3, 4; predicted at 40;
// faster than linear first)".
func GrowText(f *Findings) string {
	return fmt.Sprintf("%d of %d call sites grow, %s (%s; predicted at %s; %s)",
		len(f.Growing()), len(f.Sites), plural(len(f.Findings), "finding"), SizesText(f), Number(f.Target), RankText(f))
}

// RankText says which findings come first (rank.go): with input sizes,
// "faster than linear first" (and ", test setup last" in a test, ",
// paced by a clock last" when a finding is);
// with repetitions of one action, "by calls: a repetition should not
// grow".
func RankText(f *Findings) string {
	t := "by calls: a repetition should not grow"
	if f.InputSizes {
		t = "faster than linear first"
	}
	if f.Test {
		t += ", test setup last"
	}
	for _, d := range f.Findings {
		if d.Clock != "" {
			return t + ", paced by a clock last"
		}
	}
	return t
}

// FindingsList prints the top findings (all when top ≤ 0), ranked, and a
// line saying how many more there are.
func FindingsList(f *Findings, top int) string {
	var b strings.Builder
	shown := f.Findings
	if top > 0 && len(shown) > top {
		shown = shown[:top]
	}
	for i, d := range shown {
		b.WriteString(FindingLines(f, d, i+1))
	}
	if len(shown) < len(f.Findings) {
		fmt.Fprintf(&b, "    ... %d more (-top %d shows them)\n", len(f.Findings)-len(shown), len(f.Findings))
	}
	return b.String()
}

// Parts is a finding cut into the pieces every output shows, each in
// words already: the summary's lines, suncat test's closing line, the
// demo's list, the viewer's row and the HTML report are all put
// together from these, so no caller words a finding or edits another's
// text.
type Parts struct {
	Class      string // growth class: "quadratic"
	Frame      string // the responsible frame: "main.load (main.go:12)"
	Counts     string // calls in the sub-traces the fit uses: "1|4|16|64"
	Prediction string // "1024 at 40", with its range or its doubt
	Name       string // the top getter: "(*Stop).Name"
	Via        string // " via" the frame it is reached through, or ""
	Value      string // its most repeated value, quoted, cut at 40 bytes
	Repeats    int    // how often that value came
	// Sites is how many sites the finding covers; with more than one,
	// Covers counts its getters and callers ("77 field reads, 1
	// caller"), Getters names a few ("Var.Sh, Var.Live, +75 fields"),
	// Callers likewise ("f, g, h, ..."; "" when none), and OneGetter
	// says they are one getter called from one frame.
	Sites     int
	Covers    string
	Getters   string
	Callers   string
	OneGetter bool
	// More is Name with how many other getters the finding covers:
	// "(*Stop).Name +2".
	More string
	// Cut says how many of its calls had stacks cut at the writer's
	// depth limit (Site.Cut), "" when none did.
	Cut string
	// Clock says that a loop paced by a clock makes its calls
	// (Finding.Clock), "" when none does.
	Clock string
}

// FindingParts cuts finding d of f into its Parts.
func FindingParts(f *Findings, d *Finding) Parts {
	s := d.Sites[0]
	p := Parts{
		Class: ClassText(d.Fit.Class), Frame: FrameString(d.Frame),
		Counts: CountList(usedInts(d.Counts, f.Used)), Prediction: FindingPrediction(f, d),
		Name: s.Name, Via: nearText(s), Value: quoteCut(s.Value.Value, 40), Repeats: s.Value.Count,
		Sites: len(d.Sites), Covers: CoversText(d), Getters: Names(d.Getters, 2, restWord(eventWord(d))),
		OneGetter: len(d.Getters) == 1 && len(d.Callers) <= 1, More: s.Name,
	}
	if cs := d.Callers; len(cs) > 3 {
		p.Callers = strings.Join(append(cs[:3:3], "..."), ", ")
	} else {
		p.Callers = strings.Join(cs, ", ")
	}
	if len(d.Getters) > 1 {
		p.More += fmt.Sprintf(" +%d", len(d.Getters)-1)
	}
	p.Cut = cutText(d)
	p.Clock = ClockText(d.Clock)
	return p
}

// ClockText says that the loop at clock ("levels.go:553") is paced by a
// clock; "" when clock is.
func ClockText(clock string) string {
	if clock == "" {
		return ""
	}
	return "paced by a clock: the loop at " + clock + " waits on a timer, so its turns follow the run's time, not the input (ranked last, not gated by check)"
}

// cutText says how many of finding d's calls had stacks cut at the
// writer's depth limit, and so were counted by their innermost frames
// (mergeCut); "" when none were.
func cutText(d *Finding) string {
	cut, total := 0, 0
	for _, s := range d.Sites {
		cut, total = cut+s.Cut, total+s.Total
	}
	if cut == 0 {
		return ""
	}
	return fmt.Sprintf("%d of its %d calls had stacks deeper than %d frames, cut: counted here by their innermost frames", cut, total, tracefmt.MaxFrames)
}

// CoversLine is what a finding of several sites covers, in one line:
// "3 getters, 2 callers: A, B, C; from f, g"; "2 sites of A in it"
// when they are one getter's; "" for a finding of one site.
func (p Parts) CoversLine() string {
	switch {
	case p.Sites <= 1:
		return ""
	case p.OneGetter:
		return fmt.Sprintf("%d sites of %s in it", p.Sites, p.Name)
	case p.Callers != "":
		return p.Covers + ": " + p.Getters + "; from " + p.Callers
	}
	return p.Covers + ": " + p.Getters
}

// Names lists names as findings show them: all of them up to two more
// than keep, else the first keep and how many more there are: "Var.Sh,
// Var.Live, +75 fields" (what names the rest).
func Names(names []string, keep int, what string) string {
	if len(names) <= keep+2 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:keep], ", ") + fmt.Sprintf(", +%d %s", len(names)-keep, what)
}

// quoteCut quotes v on one line (OneLine), cut to max runes with "..."
// when longer.
func quoteCut(v string, max int) string {
	return strconv.Quote(Shorten(OneLine(v), max))
}

// FindingLines prints one finding: rank, class, the responsible frame,
// calls per sub-trace and the prediction; then the top getter, the frame
// it is reached through and its most repeated value; then, when the
// finding covers several sites, how many getters and callers and which.
func FindingLines(f *Findings, d *Finding, rank int) string {
	p := FindingParts(f, d)
	var b strings.Builder
	fmt.Fprintf(&b, "%2d. %-9s %s  %s -> %s\n", rank, p.Class, p.Frame, p.Counts, p.Prediction)
	fmt.Fprintf(&b, "    %s%s; %s x%d\n", p.Name, p.Via, p.Value, p.Repeats)
	if c := p.CoversLine(); c != "" {
		b.WriteString("    " + c + "\n")
	}
	if p.Cut != "" {
		b.WriteString("    " + p.Cut + "\n")
	}
	if p.Clock != "" {
		b.WriteString("    " + p.Clock + "\n")
	}
	return b.String()
}

// eventWord is what a finding's events are: "field read" (-reads),
// "loop" (a loop's turns, -loops), "call" (-calls), "getter", or "event"
// when the kinds mix.
func eventWord(d *Finding) string {
	kinds := map[tracefmt.EventKind]bool{}
	for _, s := range d.Sites {
		k := s.Getter.EventKind()
		if s.Getter.IsTurn() {
			k = "turn"
		}
		kinds[k] = true
	}
	switch {
	case len(kinds) > 1:
		return "event"
	case kinds["turn"]:
		return "loop"
	case kinds[tracefmt.KindRead]:
		return "field read"
	case kinds[tracefmt.KindCall]:
		return "call"
	}
	return "getter"
}

// restWord names the events left out of a list of names: "fields" for
// field reads, else the plural ("calls", "getters", "events").
func restWord(what string) string {
	switch what {
	case "field read":
		return "fields"
	case "loop":
		return "loops"
	}
	return what + "s"
}

// CoversText counts the getters and callers of a finding: "3 getters,
// 4 callers". Events of -reads and -calls are counted as what they are:
// "2 field reads", "2 calls", or "3 events" when the kinds mix.
func CoversText(d *Finding) string {
	what := eventWord(d)
	if len(d.Callers) == 0 { // the responsible frame has no caller in the stacks
		return plural(len(d.Getters), what)
	}
	return plural(len(d.Getters), what) + ", " + plural(len(d.Callers), "caller")
}

// FindingLine prints a finding in one line, as suncat test's closing
// lines show it.
func FindingLine(f *Findings, d *Finding) string {
	p := FindingParts(f, d)
	line := fmt.Sprintf("%-9s %s  %s -> %s  %s%s", p.Class, p.Frame, p.Counts, p.Prediction, p.Name, p.Via)
	if p.Sites > 1 {
		line += " (" + p.Covers + ")"
	}
	if d.Clock != "" {
		line += " (paced by a clock at " + d.Clock + ")"
	}
	return line
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func usedInts(xs []int, used []bool) []int {
	var out []int
	for i, x := range xs {
		if i < len(used) && used[i] {
			out = append(out, x)
		}
	}
	return out
}

// nearText is " via" the frame between the responsible frame and the
// getter nearest the responsible one ("" when the responsible frame
// calls the getter), with " ..." when there are more.
func nearText(s *Site) string {
	r := s.Responsible
	t := ""
	if r > 1 && r < len(s.Frames) {
		t = " via " + FrameString(s.Frames[r-1])
	}
	if r > 2 && r < len(s.Frames) {
		t += " ..."
	}
	if s.Loops != "" {
		t += ", called back in " + s.Loops + "'s loop"
	}
	return t
}

// NoneText says why no site is shown ("" when some grows): too few
// sizes, or nothing grows.
func NoneText(f *Findings) string {
	switch {
	case f == nil:
		return "no sub-traces"
	case f.Note != "":
		return fmt.Sprintf("no growth class (%s; %s): give -sizes, or record three or more sizes", f.Note, SizesText(f))
	case len(f.Growing()) == 0:
		return fmt.Sprintf("nothing grows with the size (%d call sites; %s)", len(f.Sites), SizesText(f))
	}
	return ""
}

// MixedText says, when the labels' sizes are those of several actions,
// which, and how to summarize one: "the labels name 4 actions, each at
// several sizes ("loop n=", "hash n=", "pk n=", "flat n="): fitted
// together; -run '^loop n=' keeps one". "" when they name one.
func MixedText(f *Findings) string {
	if f == nil || len(f.actions) < 2 {
		return ""
	}
	q := make([]string, 0, 4)
	for i, a := range f.actions {
		if i == 4 {
			q = append(q, "...")
			break
		}
		q = append(q, strconv.Quote(a))
	}
	return fmt.Sprintf("the labels name %d actions, each at several sizes (%s): fitted together; -run '^%s' keeps one",
		len(f.actions), strings.Join(q, ", "), regexp.QuoteMeta(f.actions[0]))
}

// SizesLine is SizesText with the size predicted at: "sizes from
// labels: 1, 2, 4, 8, predicted at 80".
func SizesLine(f *Findings) string {
	return SizesText(f) + ", predicted at " + Number(f.Target)
}

// SizesText says which sizes the fits use and where they came from:
// "sizes from labels: 1, 2, 4, 8".
func SizesText(f *Findings) string {
	return fmt.Sprintf("sizes from %s: %s", f.SizesFrom, numbers(usedOf(f.Sizes, f.Used)))
}

// WhereText names a site by its responsible frame, and the frame it
// reaches the getter through.
func WhereText(s *Site) string {
	return FrameString(s.ResponsibleFrame()) + nearText(s)
}

// FindingPrediction is PredictionText for a finding.
func FindingPrediction(f *Findings, d *Finding) string {
	return predictionText(d.Fit, d.Predicted, f.Target, distinct(usedOf(f.Sizes, f.Used)))
}

// PredictionText writes a site's predicted calls at the target size,
// with its uncertainty: "393 at 40"; "393..520 at 40 (linear or n log
// n)" when the next class fits as well; "(3 sizes: not enough to be
// sure)" with fewer than minSure distinct sizes.
func PredictionText(f *Findings, s *Site) string {
	return predictionText(s.Fit, s.Predicted, f.Target, distinct(usedOf(f.Sizes, f.Used)))
}

// minSure is the fewest distinct sizes at which a prediction is given
// without the words that it is a guess.
const minSure = 4

func predictionText(fit Fit, predicted, target float64, sizes int) string {
	at := " at " + Number(target)
	if sizes < minSure && fit.Grows() {
		return fmt.Sprintf("%s%s (%d sizes: not enough to be sure)", Count(predicted), at, sizes)
	}
	if fit.Alt != nil && fit.Grows() {
		lo, hi := predicted, finite(fit.Alt.At(target))
		if hi < lo {
			lo, hi = hi, lo
		}
		if Count(lo) != Count(hi) {
			return fmt.Sprintf("%s..%s%s (%s or %s)", Count(lo), Count(hi), at, ClassText(fit.Class), ClassText(fit.Alt.Class))
		}
	}
	return Count(predicted) + at
}

// FitText describes a fit: its exponent, its quality, the sub-trace set
// aside (Outlier counts the used sub-traces only).
func FitText(fit Fit, used []bool) string {
	line := fmt.Sprintf("exponent %.2f, R^2 %.3f", fit.Exponent, fit.R2)
	if fit.Step {
		line = "a step: the same from the second sub-trace on"
	}
	k := 0
	for i, u := range used {
		switch {
		case u && k == fit.Outlier && k == 0:
			line += fmt.Sprintf(", sub-trace %d set aside (warm-up)", i+1)
		case u && k == fit.Outlier:
			line += fmt.Sprintf(", sub-trace %d set aside as an outlier", i+1)
		}
		if u {
			k++
		}
	}
	return line
}

// TimeText describes the repeated action's time per sub-trace: its class
// and, when it grows, the size at which it passes 100 ms.
func TimeText(f *Findings) string {
	switch {
	case f.ToEnd && f.Test:
		return timeText(f, "time per sub-trace (first call to the test's end)")
	case f.ToEnd:
		return timeText(f, "time per run (first call to the end of main)")
	}
	return timeText(f, "time per sub-trace (first to last call)")
}

// timeText is TimeText with its opening words (what is timed).
func timeText(f *Findings, what string) string {
	var ts []string
	for i, t := range f.TimeNs {
		if f.Used[i] {
			ts = append(ts, Duration(float64(t)))
		}
	}
	if len(ts) > 8 {
		ts = append(append(ts[:3:3], "..."), ts[len(ts)-3:]...)
	}
	prefix := what + ": " + strings.Join(ts, "|") + ", "
	if !f.Time.Grows() {
		return prefix + TrendText(f.Time, usedOf(f.TimeNs64(), f.Used))
	}
	s := prefix + ClassText(f.Time.Class)
	if f.Time.Alt != nil && f.Time.Alt.Class != f.Time.Class {
		// Four noisy times may fit two classes about as well: say so,
		// as the counts' line does ("linear or n log n").
		s += " or " + ClassText(f.Time.Alt.Class)
	}
	s += ", " + TimePrediction(f)
	if f.LagSize > 0 {
		s += fmt.Sprintf("; passes %s at size %s", Duration(LagThreshold), Number(math.Ceil(f.LagSize)))
	}
	return s
}

// TimePrediction is the time predicted at the target: "1.2s at 400".
func TimePrediction(f *Findings) string {
	return Duration(f.TimePredictedNs) + " at " + Number(f.Target)
}

// TrendText names what a fit that does not grow saw: "no class" (too
// few sizes), "a step", "flat" (within ±33% of the mean, the jitter the
// rule ignores) or "no clear trend".
func TrendText(fit Fit, ys []float64) string {
	switch {
	case fit.Grows():
		return ClassText(fit.Class)
	case fit.Class == ClassNone:
		return "no class (" + fit.Note + ")"
	case fit.Step:
		return "a step after the first, then flat"
	case fit.Note != "":
		return fit.Note
	}
	lo, hi := minMax(ys)
	if len(ys) == 0 || hi <= 2*lo {
		return "flat"
	}
	return "no clear trend"
}

// DiffTable prints a comparison as diff does: a heading, then one row a
// site with its class and counts in BASE and HEAD, the predictions and
// the change.
func DiffTable(w io.Writer, c *Comparison) error {
	fmt.Fprintln(w, DiffHeading(c))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "getter\tsite\tbase\thead\tpredicted\tchange")
	for _, d := range c.Sites {
		s := d.Side()
		site := FrameString(tracefile.Frame{Func: d.Func, File: s.File, Line: s.Line})
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s -> %s\t%s\n", d.Name, site, SideText(d.Base), SideText(d.Head),
			SidePrediction(d.Base), SidePrediction(d.Head), ChangeText(d))
	}
	return tw.Flush()
}

// DiffHeading says what a comparison is over: "4 sub-trace(s) in common
// (n=1 .. n=8), sizes 1, 2, 4, 8; predicted at 80".
func DiffHeading(c *Comparison) string {
	return fmt.Sprintf("%d sub-trace(s) in common%s, sizes %s; predicted at %s",
		len(c.Labels), labelRange(c.Labels), numbers(c.Sizes), Number(c.Target))
}

// DiffLine is one site of a comparison in words, for an annotation:
// "(*Entry).Name at dir.go:21: class up (linear 1|2|4 -> quadratic 1|4|16)".
func DiffLine(d *SiteDiff) string {
	return fmt.Sprintf("%s: %s (%s -> %s)", d.Where(), ChangeText(d), SideText(d.Base), SideText(d.Head))
}

// FailureLine writes a site that fails suncat check's gate as one line:
// "(*Entry).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 ->
// 1|4|16|64|256)", with ", above -max linear" when that is (also) the
// reason (max, the gate's -max), and "new site, " or no BASE class for
// a site BASE does not have. A new site that grows is written as
// newLine writes it; a call's line names the function it is made in and
// ends with its statement or URL.
func FailureLine(c *Comparison, f Failure, max Class) string {
	d := f.Site
	if f.New {
		s := newLine(d)
		if f.AboveMax {
			s += ", above -max " + ClassText(max)
		}
		return s
	}
	var b strings.Builder
	b.WriteString(d.Where())
	if d.Kind == "call" { // hooked in the standard library: name the program's function
		b.WriteString(" in " + shortFunc(d.Func))
	}
	b.WriteString(": ")
	if d.Base != nil {
		b.WriteString(ClassText(d.Base.Fit.Class) + " -> ")
	} else if c.HasBase {
		b.WriteString("new site, ")
	}
	b.WriteString(ClassText(d.Head.Fit.Class))
	if f.AboveMax {
		b.WriteString(", above -max " + ClassText(max))
	}
	b.WriteString(" (")
	if d.Base != nil {
		b.WriteString(CountList(d.Base.Counts) + " -> ")
	}
	b.WriteString(CountList(d.Head.Counts) + ")")
	b.WriteString(valueText(d))
	return b.String()
}

// newLine writes a new site that grows: "new: linear N+1 at
// sqlite.go:345 in store.ListTags, "SELECT name FROM tags WHERE ..."
// (10|20|40|80)" for a call in a loop that grows linearly (an N+1),
// "new: quadratic (*Entry).Name at dir.go:21 in dir.lookup (1|4|16|64),
// linear in BASE at that loop" otherwise.
func newLine(d *SiteDiff) string {
	h := d.Head
	what := d.Name
	if d.Kind == "call" && h.Fit.Class == ClassLinear {
		what = "N+1"
	}
	s := fmt.Sprintf("new: %s %s at %s:%d in %s", ClassText(h.Fit.Class), what,
		filepath.Base(h.File), h.Line, shortFunc(d.Func))
	if d.named {
		s += " (" + d.Family + ")"
	}
	s += valueText(d) + " (" + CountList(h.Counts) + ")"
	if d.LoopBase > ClassConstant {
		s += ", " + ClassText(d.LoopBase) + " in BASE at that loop"
	}
	return s
}

// maxValueText is how many runes of a call's value a line shows.
const maxValueText = 80

// valueText is ", " and a call's most repeated value (its statement, its
// URL) on one line, quoted; "" for a getter or a read.
func valueText(d *SiteDiff) string {
	if d.Kind != "call" || d.Value == "" {
		return ""
	}
	return ", " + strconv.Quote(Shorten(OneLine(d.Value), maxValueText))
}

// ChangeText is what changed at a site, with "(noise)" when the counts
// do not bear a class up out.
func ChangeText(d *SiteDiff) string {
	if d.Noise {
		return d.Change + " (noise)"
	}
	return d.Change
}

// SideText is a site's class and counts in one run: "linear 1|2|4"; "-"
// when the run does not have it.
func SideText(s *SiteSide) string {
	if s == nil {
		return "-"
	}
	return ClassText(s.Fit.Class) + " " + CountList(s.Counts)
}

// SidePrediction is a site's predicted calls in one run; "-" when the
// run does not have it.
func SidePrediction(s *SiteSide) string {
	if s == nil {
		return "-"
	}
	return Count(s.Predicted)
}

// labelRange is " (first .. last)" of the labels, or "".
func labelRange(labels []string) string {
	switch len(labels) {
	case 0:
		return ""
	case 1:
		return " (" + labels[0] + ")"
	}
	return " (" + labels[0] + " .. " + labels[len(labels)-1] + ")"
}

// CountList writes counts as "1|2|4|8|16"; a row of more than eight as
// its first three, "...", and its last three.
func CountList(counts []int) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = strconv.Itoa(c)
	}
	if len(parts) > 8 {
		parts = append(append(parts[:3:3], "..."), parts[len(parts)-3:]...)
	}
	return strings.Join(parts, "|")
}

func numbers(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = Number(x)
	}
	if len(parts) > 8 {
		return fmt.Sprintf("%s, %s, ..., %s (%d)", parts[0], parts[1], parts[len(parts)-1], len(parts))
	}
	return strings.Join(parts, ", ")
}

// Count prints a predicted count: Number of the count rounded.
func Count(x float64) string { return Number(math.Round(x)) }

// Number prints a count or size: whole numbers up to a million as they
// are, larger ones and fractions with three significant digits.
func Number(x float64) string {
	switch {
	case x >= math.MaxFloat64:
		return "inf"
	case x == math.Trunc(x) && math.Abs(x) < 1e6:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 1e6:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// Duration prints nanoseconds as a rounded duration.
func Duration(ns float64) string {
	if ns >= float64(math.MaxInt64) {
		return "forever"
	}
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	case d >= time.Microsecond:
		return d.Round(time.Microsecond).String()
	}
	return d.String()
}

// fewEvents is the most events per sub-trace below which FewEventsNote
// warns that the recording may not see the work that varies.
const fewEvents = 20

// FewEventsNote returns, when no used sub-trace has more than a handful
// of events, a note that what was recorded cannot show the growth of
// work that calls no instrumented getter; "" otherwise.
func (f *Findings) FewEventsNote() string {
	most := 0
	for i := range f.Used {
		if !f.Used[i] {
			continue
		}
		n := 0
		for _, s := range f.Sites {
			if i < len(s.Counts) {
				n += s.Counts[i]
			}
		}
		most = max(most, n)
	}
	if most == 0 || most > fewEvents {
		return ""
	}
	r := f.recorded()
	hint := "suncat getters -v lists what is instrumented and why the rest is not; -deps adds dependencies"
	if h := r.flagHint(); h != "" {
		hint += "; " + h
	}
	return fmt.Sprintf("only %d %s(s) per sub-trace at most: work that records no event is not seen (%s)", most, r.noun(), hint)
}
