package export

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// A series is one run of points of a chart (a finding's calls per
// size, a site's in BASE or HEAD, the time per sub-trace), with the
// class fitted to them and its prediction at the chart's target.
type series struct {
	name   string // "calls", "BASE", "HEAD", "time"
	xs, ys []float64
	fit    prioritize.Fit
	pred   float64 // fit at the target; 0: none marked
	mark   string  // the prediction's label: "1024 at 400"
}

// A chart is a log-log plot of series against sizes, up to target; a
// horizontal line at limit (the 100 ms of the time chart) when above 0.
type chart struct {
	title          string // what the y axis counts: "calls", "time"
	target         float64
	limit          float64
	limitLabel     string
	series         []series
	format         func(float64) string // y values as text (Number, Duration)
	x0, x1, y0, y1 float64              // the domain, in log10
}

// The chart's frame, in SVG units: the plot area is inside the margins.
const (
	chartW, chartH   = 480, 260
	marginL, marginR = 58, 16
	marginT, marginB = 14, 36
	samples          = 48 // points of a fitted curve
	maxSpan          = 9  // decades above the largest point a curve may reach
)

// svg draws c as an inline SVG element. Every point is a circle (a
// square for a second series) with a <title> giving its numbers, so the
// chart reads without colour and with a screen reader.
func (c *chart) svg() string {
	c.domain()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s">`, chartW, chartH, esc(c.title+" against size, log-log"))
	c.axes(&b)
	for i, s := range c.series {
		c.band(&b, s, i)
	}
	for i, s := range c.series {
		c.curve(&b, s, i)
	}
	if c.limit > 0 {
		y := c.py(c.limit)
		fmt.Fprintf(&b, `<line class="limit" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/><text class="limit-label" x="%d" y="%.1f" text-anchor="end">%s</text>`,
			marginL, chartW-marginR, y, y, chartW-marginR-4, y+13, esc(c.limitLabel))
	}
	for i, s := range c.series {
		c.points(&b, s, i)
	}
	b.WriteString("</svg>")
	return b.String()
}

// domain sets the axes' ranges (log10) from the points, the target and
// the predictions, a curve never more than maxSpan decades above the
// largest point.
func (c *chart) domain() {
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for i := range s.xs {
			xlo, xhi = math.Min(xlo, s.xs[i]), math.Max(xhi, s.xs[i])
			ylo, yhi = math.Min(ylo, positive(s.ys[i])), math.Max(yhi, s.ys[i])
		}
	}
	xlo, ylo = positiveOr(xlo, 1), positiveOr(ylo, 1) // 0 has no place on a log axis
	xhi = math.Max(xhi, c.target)
	ymax := math.Max(yhi, 1) * math.Pow(10, maxSpan)
	for _, s := range c.series {
		if s.pred > 0 && s.pred < ymax {
			yhi = math.Max(yhi, s.pred)
		}
		if s.fit.Alt != nil {
			if a := s.fit.Alt.At(c.target); a > 0 && a < ymax {
				yhi = math.Max(yhi, a)
			}
		}
	}
	if c.limit > 0 {
		ylo, yhi = math.Min(ylo, c.limit), math.Max(yhi, c.limit)
	}
	yhi = math.Max(yhi, ylo*10)
	c.x0, c.x1 = math.Log10(xlo), math.Log10(math.Max(xhi, xlo*10))
	c.y0, c.y1 = math.Log10(ylo)-0.15, math.Log10(yhi)+0.15
	if c.x1 <= c.x0 {
		c.x1 = c.x0 + 1
	}
}

// positive is y, or 0 when it is not above 0 (not on a log axis).
func positive(y float64) float64 {
	if y > 0 {
		return y
	}
	return math.Inf(1)
}

// positiveOr is x when it is a positive finite number, else or.
func positiveOr(x, or float64) float64 {
	if x > 0 && !math.IsInf(x, 0) {
		return x
	}
	return or
}

// px and py place a size and a value on the chart; values at or below
// zero sit on the bottom edge.
func (c *chart) px(x float64) float64 {
	if x <= 0 || math.IsNaN(x) {
		return marginL
	}
	return marginL + (math.Log10(x)-c.x0)/(c.x1-c.x0)*(chartW-marginL-marginR)
}

func (c *chart) py(y float64) float64 {
	if y <= 0 || math.IsNaN(y) {
		return chartH - marginB
	}
	v := (math.Log10(y) - c.y0) / (c.y1 - c.y0)
	v = math.Max(0, math.Min(1, v))
	return chartH - marginB - v*(chartH-marginT-marginB)
}

// axes draws the frame, a tick at each power of ten (every second or
// third when there are many) and the axes' names.
func (c *chart) axes(b *strings.Builder) {
	fmt.Fprintf(b, `<rect class="frame" x="%d" y="%d" width="%d" height="%d"/>`, marginL, marginT, chartW-marginL-marginR, chartH-marginT-marginB)
	for _, e := range decades(c.x0, c.x1) {
		x := c.px(math.Pow(10, float64(e)))
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/><text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			x, x, marginT, chartH-marginB, x, chartH-marginB+14, esc(prioritize.Number(math.Pow(10, float64(e)))))
	}
	for _, e := range decades(c.y0, c.y1) {
		y := c.py(math.Pow(10, float64(e)))
		fmt.Fprintf(b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/><text class="tick" x="%d" y="%.1f" text-anchor="end">%s</text>`,
			marginL, chartW-marginR, y, y, marginL-4, y+4, esc(c.format(math.Pow(10, float64(e)))))
	}
	fmt.Fprintf(b, `<text class="axis" x="%d" y="%d" text-anchor="end">size (log)</text>`, chartW-marginR, chartH-4)
	fmt.Fprintf(b, `<text class="axis" x="4" y="%d">%s (log)</text>`, marginT-2, esc(c.title))
}

// decades are the powers of ten from lo to hi (log10), thinned to at
// most six.
func decades(lo, hi float64) []int {
	var out []int
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := 1 + (last-first)/6
	for e := first; e <= last; e += step {
		out = append(out, e)
	}
	return out
}

// curve draws a series' fitted class from its smallest size to the
// target, and the prediction marked with its label.
func (c *chart) curve(b *strings.Builder, s series, i int) {
	if !s.fit.Grows() {
		return // no class, or constant: the points say it; no line to draw
	}
	var pts []string
	for _, x := range c.samples(s) {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", c.px(x), c.py(s.fit.At(x))))
	}
	fmt.Fprintf(b, `<polyline class="fit s%d" points="%s"><title>%s</title></polyline>`, i, strings.Join(pts, " "),
		esc(s.name+": "+prioritize.ClassText(s.fit.Class)+" fit"))
	if s.pred <= 0 {
		return
	}
	x, y := c.px(c.target), c.py(s.pred)
	fmt.Fprintf(b, `<path class="pred s%d" d="M%.1f %.1fl6 6l-6 6l-6 -6z"><title>%s</title></path>`, i, x, y-6, esc("predicted "+s.mark))
	fmt.Fprintf(b, `<text class="pred-label" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, x-8, y+4+float64(i)*12, esc(s.mark))
}

// samples are sizes spread evenly on the log axis from the series'
// smallest size to the target.
func (c *chart) samples(s series) []float64 {
	lo := math.Inf(1)
	for _, x := range s.xs {
		if x > 0 {
			lo = math.Min(lo, x)
		}
	}
	if math.IsInf(lo, 0) {
		lo = math.Pow(10, c.x0)
	}
	hi := math.Max(c.target, lo)
	out := make([]float64, samples+1)
	for k := range out {
		out[k] = lo * math.Pow(hi/lo, float64(k)/samples)
	}
	return out
}

// band shades, when the data cannot tell the fitted class from the next
// (Fit.Alt), the region between the two curves.
func (c *chart) band(b *strings.Builder, s series, i int) {
	if s.fit.Alt == nil || !s.fit.Grows() {
		return
	}
	xs := c.samples(s)
	var top, bottom []string
	for _, x := range xs {
		top = append(top, fmt.Sprintf("%.1f,%.1f", c.px(x), c.py(s.fit.At(x))))
	}
	for k := len(xs) - 1; k >= 0; k-- {
		bottom = append(bottom, fmt.Sprintf("%.1f,%.1f", c.px(xs[k]), c.py(s.fit.Alt.At(xs[k]))))
	}
	fmt.Fprintf(b, `<polygon class="band s%d" points="%s"><title>%s</title></polygon>`, i, strings.Join(append(top, bottom...), " "),
		esc(prioritize.ClassText(s.fit.Class)+" or "+prioritize.ClassText(s.fit.Alt.Class)+": the data cannot tell them apart"))
}

// points draws one mark per size: a circle, a square for the second
// series; each with its numbers as a title.
func (c *chart) points(b *strings.Builder, s series, i int) {
	for k := range s.xs {
		x, y := c.px(s.xs[k]), c.py(s.ys[k])
		tip := esc(fmt.Sprintf("%s: %s at size %s", s.name, c.format(s.ys[k]), prioritize.Number(s.xs[k])))
		if i%2 == 1 {
			fmt.Fprintf(b, `<rect class="pt s%d" x="%.1f" y="%.1f" width="7" height="7" data-size="%s" data-y="%s"><title>%s</title></rect>`,
				i, x-3.5, y-3.5, prioritize.Number(s.xs[k]), prioritize.Number(s.ys[k]), tip)
			continue
		}
		fmt.Fprintf(b, `<circle class="pt s%d" cx="%.1f" cy="%.1f" r="4" data-size="%s" data-y="%s"><title>%s</title></circle>`,
			i, x, y, prioritize.Number(s.xs[k]), prioritize.Number(s.ys[k]), tip)
	}
}

func esc(s string) string { return html.EscapeString(s) }
