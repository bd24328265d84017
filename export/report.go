package export

import (
	"html/template"
	"io"
	"strconv"

	"github.com/suncat-go/suncat/prioritize"
)

// A Report is what HTML renders: a summary's findings (per test family
// for a suite) and a comparison of two runs when there is one.
type Report struct {
	Title   string              // what it is a report of: the traces' names
	Summary *prioritize.Summary // nil: the comparison alone
	// Suite: the findings are per test family (Families, ranked, and
	// the tests that give no class), not over the whole run.
	Suite    bool
	Families []*prioritize.Family
	Unsized  []prioritize.Unsized
	Compare  *prioritize.Comparison // nil: no comparison
	Failures []prioritize.Failure   // suncat check's failures, waived ones included
	Top      int                    // findings shown per list; ≤ 0: all
	// Source reads a source file, for the responsible function's lines;
	// nil, or an error, shows its file:line alone. The report reads
	// nothing else.
	Source func(path string) ([]byte, error)
}

// page is a Report as the template reads it: every piece in words
// already, from prioritize's renderer.
type page struct {
	Title    string
	Sections []section
	Unsized  []string
	NoSizes  string
	Compare  []compareView
	Verdict  string
}

// A section is the findings of a run, or of one test family.
type section struct {
	Name     string // the family ("BenchmarkSort, per op"); "" for a whole run
	Heading  string // what grows: GrowText, or why nothing is shown
	Findings []findingView
	More     int // findings left out by Top
	Time     *timeView
	// Notes are the lines under the findings: sub-traces that share few
	// call sites (ApartText), what grows records nothing (UnseenText),
	// sites that rise at the largest size only (JumpText) or unevenly
	// (UnevenText).
	Notes []string
}

// A findingView is one finding: its Parts, its chart and points, the
// full value, the stack down to the responsible frame and its source.
type findingView struct {
	prioritize.Parts
	ID     string
	Rank   int
	Fit    string // FitText
	Why    string // how the responsible frame was found
	Full   string // the most repeated value, whole
	Chart  template.HTML
	Points []pointView
	Stack  []frameView
	File   string // the responsible frame's file:line
	Source []sourceLine
}

type pointView struct{ Size, Y string }

type frameView struct {
	Text        string
	Responsible bool
}

// A timeView is the time per sub-trace: its words (TimeText) and chart.
type timeView struct {
	Text  string
	Chart template.HTML
}

// HTML writes r as one self-contained HTML page: styles inline, charts
// as inline SVG, no script and nothing fetched at view time.
func HTML(w io.Writer, r Report) error {
	p := page{Title: r.Title}
	switch {
	case r.Summary == nil:
	case r.Suite && len(r.Families) == 0:
		p.NoSizes = prioritize.NoSizesHeading(r.Summary, r.Unsized)
		p.Unsized = unsizedLines(r.Unsized)
	case r.Suite:
		for _, fam := range r.Families {
			p.Sections = append(p.Sections, r.section(prioritize.FamilyName(fam), fam.Findings, fam))
		}
		p.Unsized = unsizedLines(r.Unsized)
	default:
		p.Sections = []section{r.section("", r.Summary.Findings, nil)}
	}
	if r.Compare != nil {
		p.Compare = compareViews(r.Compare, r.Failures)
		if r.Failures != nil {
			p.Verdict = verdict(r.Failures)
		}
	}
	return pageTemplate.Execute(w, p)
}

func unsizedLines(us []prioritize.Unsized) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name+": "+u.Why())
	}
	return out
}

// section renders the findings of f (of family fam, nil for a run).
func (r Report) section(name string, f *prioritize.Findings, fam *prioritize.Family) section {
	s := section{Name: name}
	for _, n := range []string{prioritize.ApartText(f), prioritize.UnseenText(f), prioritize.JumpText(f), prioritize.UnevenText(f)} {
		if n != "" {
			s.Notes = append(s.Notes, n)
		}
	}
	if none := prioritize.NoneText(f); none != "" {
		s.Heading = none
		return s
	}
	s.Heading = prioritize.GrowText(f)
	shown := f.Findings
	if r.Top > 0 && len(shown) > r.Top {
		shown, s.More = shown[:r.Top], len(shown)-r.Top
	}
	for i, d := range shown {
		id := "f" + strconv.Itoa(i+1)
		if fam != nil {
			id = "fam-" + strconv.Itoa(familyIndex(r.Families, fam)) + "-" + id
		}
		s.Findings = append(s.Findings, r.finding(f, d, i+1, id))
	}
	s.Time = timeOf(f, fam)
	return s
}

func familyIndex(fams []*prioritize.Family, fam *prioritize.Family) int {
	for i, f := range fams {
		if f == fam {
			return i + 1
		}
	}
	return 0
}

// finding renders finding d of f.
func (r Report) finding(f *prioritize.Findings, d *prioritize.Finding, rank int, id string) findingView {
	top := d.Sites[0]
	v := findingView{Parts: prioritize.FindingParts(f, d), ID: id, Rank: rank, Fit: prioritize.FitText(d.Fit, f.Used),
		Why: d.Why, Full: top.Value.Value}
	s := series{name: "calls", fit: d.Fit, pred: d.Predicted, mark: v.Prediction}
	for i, u := range f.Used {
		if u && i < len(d.Counts) {
			s.xs = append(s.xs, f.Sizes[i])
			s.ys = append(s.ys, float64(d.Counts[i]))
			v.Points = append(v.Points, pointView{prioritize.Number(f.Sizes[i]), strconv.Itoa(d.Counts[i])})
		}
	}
	c := chart{title: "calls", target: f.Target, series: []series{s}, format: prioritize.Number}
	v.Chart = template.HTML(c.svg())
	for k, fr := range top.Frames {
		if k > top.Responsible && k > top.Distinct {
			break
		}
		v.Stack = append(v.Stack, frameView{Text: prioritize.FrameString(fr), Responsible: k == top.Responsible})
	}
	fr := d.Frame
	v.File = fr.File + ":" + strconv.Itoa(fr.Line)
	if r.Source != nil && fr.File != "" {
		if src, err := r.Source(fr.File); err == nil {
			v.Source = sourceLines(src, fr.Line, top.LoopLine)
		}
	}
	return v
}

// timeOf renders the time per sub-trace, when times were recorded: its
// words and a chart with the 100 ms line.
func timeOf(f *prioritize.Findings, fam *prioritize.Family) *timeView {
	s := series{name: "time", fit: f.Time}
	recorded := false
	for i, u := range f.Used {
		if u && i < len(f.TimeNs) {
			s.xs = append(s.xs, f.Sizes[i])
			s.ys = append(s.ys, float64(f.TimeNs[i]))
			recorded = recorded || f.TimeNs[i] > 0
		}
	}
	if !recorded {
		return nil
	}
	if f.Time.Grows() {
		s.pred, s.mark = f.TimePredictedNs, prioritize.TimePrediction(f)
	}
	text := prioritize.TimeText(f)
	if fam != nil {
		text = prioritize.FamilyTimeText(fam)
	}
	c := chart{title: "time", target: f.Target, limit: prioritize.LagThreshold,
		limitLabel: prioritize.Duration(prioritize.LagThreshold), series: []series{s}, format: prioritize.Duration}
	return &timeView{Text: text, Chart: template.HTML(c.svg())}
}
