package prioritize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// FindingsText renders the findings as the summary's opening section:
// a heading that says where the sizes came from, then the top growing
// sites (all when top ≤ 0), two lines each, and the time per sub-trace;
// one line when nothing grows.
func FindingsText(f *Findings, top int) string {
	var b strings.Builder
	if f == nil {
		return "== Findings: no sub-traces\n"
	}
	grow := f.Growing()
	sizes := fmt.Sprintf("sizes from %s: %s", f.SizesFrom, numbers(usedOf(f.Sizes, f.Used)))
	switch {
	case f.Note != "":
		fmt.Fprintf(&b, "== Findings: no growth class (%s; %s): give -sizes, or record three or more sizes\n", f.Note, sizes)
		return b.String()
	case len(grow) == 0:
		fmt.Fprintf(&b, "== Findings: nothing grows with the size (%d call sites; %s)\n", len(f.Sites), sizes)
		if note := f.FewEventsNote(); note != "" {
			b.WriteString("    " + note + "\n")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "== Findings: %d of %d call sites grow (%s; predicted at %s)\n", len(grow), len(f.Sites), sizes, Number(f.Target))
	shown := grow
	if top > 0 && len(shown) > top {
		shown = shown[:top]
	}
	for i, s := range shown {
		b.WriteString(SiteLines(f, s, i+1))
	}
	if len(shown) < len(grow) {
		fmt.Fprintf(&b, "    ... %d more growing (-top %d shows them)\n", len(grow)-len(shown), len(grow))
	}
	b.WriteString(TimeLine(f) + "\n")
	return b.String()
}

// SiteLines prints one finding in two lines: rank, class, getter, calls
// per sub-trace and the prediction; then the frame that names the site
// (and the caller it is reached through) and its most repeated value.
func SiteLines(f *Findings, s *Site, rank int) string {
	var counts []float64
	for i, c := range s.Counts {
		if f.Used[i] {
			counts = append(counts, float64(c))
		}
	}
	line1 := fmt.Sprintf("%2d. %-8s %-20s %s -> %s at %s", rank, s.Fit.Class, s.Name, joinCounts(counts), Number(math.Round(s.Predicted)), Number(f.Target))
	where := s.Where()
	if s.Distinct > 1 {
		where += " via " + FrameString(s.Frames[1])
		if s.Distinct > 2 {
			where += " ..."
		}
	}
	v := s.Value.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	line2 := fmt.Sprintf("    %s; %s x%d", where, strconv.Quote(v), s.Value.Count)
	return line1 + "\n" + line2 + "\n"
}

// TimeLine describes the repeated action's time per sub-trace: its class
// and, when it grows, the size at which it passes 100 ms.
func TimeLine(f *Findings) string {
	var ts []string
	for i, t := range f.TimeNs {
		if f.Used[i] {
			ts = append(ts, Duration(float64(t)))
		}
	}
	if len(ts) > 8 {
		ts = append(append(ts[:3:3], "..."), ts[len(ts)-3:]...)
	}
	s := fmt.Sprintf("time per sub-trace (first to last call): %s, %s", strings.Join(ts, "|"), f.Time.Class)
	if !f.Time.Grows() {
		return s
	}
	s += fmt.Sprintf(", %s at %s", Duration(f.TimePredictedNs), Number(f.Target))
	if f.LagSize > 0 {
		s += fmt.Sprintf("; passes 100 ms at size %s", Number(f.LagSize))
	}
	return s
}

func joinCounts(cs []float64) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = Number(c)
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
	return fmt.Sprintf("only %d getter call(s) per sub-trace at most: work that calls no instrumented getter is not seen (suncat getters -v lists what is instrumented and why the rest is not; -deps adds dependencies)", most)
}
