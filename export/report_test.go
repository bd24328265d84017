package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// node is an element of a rendered page, parsed back: its name, class,
// attributes, text (its own and its children's) and children.
type node struct {
	name     string
	attr     map[string]string
	text     string
	children []*node
}

// parsePage parses the page as the browser's HTML parser would for this
// markup (void elements closed, entities known), so the test reads the
// page's structure, not its bytes.
func parsePage(t *testing.T, page []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	root := &node{name: "root"}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("parsing the page: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			for _, n := range stack {
				n.text += string(tok)
			}
		}
	}
	return root
}

// find returns the elements below n named name whose class list has
// class ("" for any).
func (n *node) find(name, class string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.name == name && (class == "" || hasClass(c, class)) {
			out = append(out, c)
		}
		out = append(out, c.find(name, class)...)
	}
	return out
}

func hasClass(n *node, class string) bool {
	for _, c := range strings.Fields(n.attr["class"]) {
		if c == class {
			return true
		}
	}
	return false
}

// busSource reads the bus app's sources from this checkout, wherever
// the trace was recorded.
func busSource(path string) ([]byte, error) {
	_, rel, ok := strings.Cut(filepath.ToSlash(path), "testdata/busapp/")
	if !ok {
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join("..", "testdata", "busapp", rel))
}

func busSummary(t *testing.T) *prioritize.Summary {
	t.Helper()
	s, err := prioritize.Build([]*tracefile.Trace{busTrace(t)}, prioritize.Options{Sources: prioritize.NewSources(os.ReadFile)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReportStructure renders the bus app's report and reads it back:
// one article per finding in the summary's order, with the renderer's
// class, counts and prediction as text; a chart with one point per
// size; the responsible function's source with the loop's lines and the
// call's line marked; the time chart with its 100 ms line; nothing that
// fetches or runs anything.
func TestReportStructure(t *testing.T) {
	s := busSummary(t)
	f := s.Findings
	var buf bytes.Buffer
	if err := HTML(&buf, Report{Title: "busapp.suncat", Summary: s, Source: busSource}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<script", "http://", "https://", "<link", "@import", "<img"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %q: it must not fetch or run anything", bad)
		}
	}
	root := parsePage(t, buf.Bytes())
	arts := root.find("article", "finding")
	if len(arts) != len(f.Findings) || len(arts) == 0 {
		t.Fatalf("%d finding articles, want %d", len(arts), len(f.Findings))
	}
	for i, a := range arts {
		p := prioritize.FindingParts(f, f.Findings[i])
		for _, want := range []string{p.Class, p.Frame, p.Counts, p.Prediction} {
			if !strings.Contains(a.text, want) {
				t.Errorf("finding %d: no %q in its text", i+1, want)
			}
		}
		checkPoints(t, a, f, "finding "+strconv.Itoa(i+1))
	}
	checkSource(t, arts[0], 53, 46, 59)
	times := root.find("div", "time")
	if len(times) != 1 || len(times[0].find("line", "limit")) != 1 {
		t.Errorf("want one time chart with its 100 ms line; got %d", len(times))
	}
}

// checkPoints checks that a's chart has one point per size the
// findings fit, at those sizes, in order.
func checkPoints(t *testing.T, a *node, f *prioritize.Findings, what string) {
	t.Helper()
	charts := a.find("svg", "chart")
	if len(charts) != 1 {
		t.Fatalf("%s: %d charts, want 1", what, len(charts))
	}
	var sizes, want []string
	for _, pt := range charts[0].find("circle", "pt") {
		sizes = append(sizes, pt.attr["data-size"])
	}
	for i, u := range f.Used {
		if u {
			want = append(want, prioritize.Number(f.Sizes[i]))
		}
	}
	if strings.Join(sizes, " ") != strings.Join(want, " ") {
		t.Errorf("%s: points at sizes %v, want one per size %v", what, sizes, want)
	}
	if len(charts[0].find("polyline", "fit")) != 1 || len(charts[0].find("path", "pred")) != 1 {
		t.Errorf("%s: want the fitted class drawn and the prediction marked", what)
	}
}

// checkSource checks that a shows its function's source with line
// event marked "event" and lines loop..end (but event) marked "loop".
func checkSource(t *testing.T, a *node, event, loop, end int) {
	t.Helper()
	lines := a.find("span", "line")
	if len(lines) == 0 {
		t.Fatal("no source lines")
	}
	for _, l := range lines {
		n, _ := strconv.Atoi(l.attr["data-line"])
		want := ""
		switch {
		case n == event:
			want = "event"
		case n >= loop && n <= end:
			want = "loop"
		}
		if got := strings.TrimSpace(strings.TrimPrefix(l.attr["class"], "line")); got != want {
			t.Errorf("source line %d marked %q, want %q", n, got, want)
		}
	}
}

// TestReportNotes: the lines the summary writes under its findings are
// in the report too: a site that rises at the largest size only, which
// is no finding.
func TestReportNotes(t *testing.T) {
	xs := []float64{25, 50, 100, 200}
	jump := &prioritize.Site{Name: "box.events", Frames: []tracefile.Frame{{Func: "main.main", File: "/src/main.go", Line: 21}},
		Counts: []int{5, 5, 5, 1000000}, Fit: prioritize.FitGrowth(xs, []float64{5, 5, 5, 1000000})}
	f := &prioritize.Findings{Sizes: xs, SizesFrom: prioritize.SizesFromLabels, Sites: []*prioritize.Site{jump}}
	var buf bytes.Buffer
	if err := HTML(&buf, Report{Title: "jump.suncat", Summary: &prioritize.Summary{Findings: f}}); err != nil {
		t.Fatal(err)
	}
	notes := parsePage(t, buf.Bytes()).find("p", "note")
	if want := prioritize.JumpText(f); want == "" || len(notes) != 1 || notes[0].text != want {
		t.Errorf("notes %v, want one: %q", notes, want)
	}
}

// TestReportCompare: a comparison's rows say each side's class and
// counts; the site that grows faster in HEAD is marked (in words, not
// only colour), failures say so, and its chart has one point per shared
// size on each side.
func TestReportCompare(t *testing.T) {
	sizes := []float64{1, 2, 4, 8}
	side := func(counts ...int) *prioritize.SiteSide {
		ys := make([]float64, len(counts))
		for i, c := range counts {
			ys[i] = float64(c)
		}
		fit := prioritize.FitGrowth(sizes, ys)
		return &prioritize.SiteSide{File: "/src/dir.go", Line: 21, Counts: counts, Fit: fit, Predicted: fit.At(80)}
	}
	up := &prioritize.SiteDiff{Name: "(*Entry).Name", Func: "dir.lookup", Base: side(1, 2, 4, 8), Head: side(1, 4, 16, 64), Change: prioritize.ChangeUp}
	same := &prioritize.SiteDiff{Name: "(*Entry).Size", Func: "dir.list", Base: side(1, 2, 4, 8), Head: side(1, 2, 4, 8), Change: prioritize.ChangeSame}
	c := &prioritize.Comparison{HasBase: true, Labels: []string{"n=1", "n=2", "n=4", "n=8"}, Sizes: sizes, Target: 80, Sites: []*prioritize.SiteDiff{up, same}}
	var buf bytes.Buffer
	err := HTML(&buf, Report{Title: "base against head", Compare: c, Failures: []prioritize.Failure{{Site: up, Worse: true}}})
	if err != nil {
		t.Fatal(err)
	}
	root := parsePage(t, buf.Bytes())
	rows := root.find("tr", "up")
	if len(rows) != 1 || !strings.Contains(rows[0].text, "▲ class up · fails") || !strings.Contains(rows[0].text, "quadratic 1|4|16|64") {
		t.Fatalf("want one row marked up, failing, with HEAD's class; got %d", len(rows))
	}
	charts := root.find("svg", "chart")
	if len(charts) != 1 || len(charts[0].find("circle", "pt")) != 4 || len(charts[0].find("rect", "pt")) != 4 {
		t.Errorf("want one chart with 4 BASE and 4 HEAD points; got %d charts", len(charts))
	}
	if v := root.find("p", "verdict"); len(v) != 1 || !strings.Contains(v[0].text, "1 site(s) fail") {
		t.Errorf("want the check's verdict")
	}
}

// TestSourceLinesLong: a function longer than maxSource lines is cut to
// its first line, a gap, and a window from just above the loop; the
// loop's lines and the call's are marked.
func TestSourceLinesLong(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc long(xs []int) int {\n") // func at line 3
	for i := 4; i < 40; i++ {
		b.WriteString("\t_ = 0\n")
	}
	b.WriteString("\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t\tn += f(x)\n\t}\n\treturn n\n}\n") // loop 41-44, call 43
	lines := sourceLines([]byte(b.String()), 43, 41)
	if len(lines) < 3 || lines[0].N != 3 || lines[1].Mark != "gap" || lines[2].N != 39 {
		t.Fatalf("want the func line, a gap, then from line 39; got %+v", lines[:min(3, len(lines))])
	}
	marks := map[int]string{}
	for _, l := range lines[2:] {
		marks[l.N] = l.Mark + l.Gutter
	}
	want := map[int]string{40: " ", 41: "loop│", 42: "loop│", 43: "event▶", 44: "loop│", 45: " ", 46: " "}
	for n, w := range want {
		if marks[n] != w {
			t.Errorf("line %d: %q, want %q", n, marks[n], w)
		}
	}
	if last := lines[len(lines)-1].N; last != 46 {
		t.Errorf("last line %d, want the function's end, 46", last)
	}
}

// TestChartOddSeries: zeros, a single size, a fit that overflows at the
// target and no points at all still give a chart with finite numbers
// and one mark per point.
func TestChartOddSeries(t *testing.T) {
	exp := prioritize.Fit{Class: prioritize.ClassExponential, A: 0, B: 1, Rate: 1, Outlier: -1}
	for _, s := range []series{
		{name: "zeros", xs: []float64{0, 10, 100}, ys: []float64{0, 0, 5}, fit: prioritize.FitGrowth([]float64{0, 10, 100}, []float64{0, 0, 5})},
		{name: "one", xs: []float64{7}, ys: []float64{3}},
		{name: "overflow", xs: []float64{1, 2, 3, 4}, ys: []float64{2, 4, 8, 16}, fit: exp, pred: exp.At(4000), mark: "inf"},
		{name: "empty"},
	} {
		c := chart{title: "calls", target: 4000, series: []series{s}, format: prioritize.Number}
		svg := c.svg()
		if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
			t.Errorf("%s: non-finite numbers in the chart:\n%s", s.name, svg)
		}
		if n := strings.Count(svg, `<circle class="pt`); n != len(s.xs) {
			t.Errorf("%s: %d points, want %d", s.name, n, len(s.xs))
		}
	}
}
