package export

import (
	"html/template"
	"strconv"

	"github.com/suncat-go/suncat/prioritize"
)

// A compareView is a comparison (suncat diff, check) of one run or one
// test family: BASE against HEAD per site.
type compareView struct {
	Family  string
	Heading string // DiffHeading
	Note    string
	Rows    []siteRow
}

// A siteRow is one site in BASE and HEAD. Up marks a site that grows
// faster in HEAD (a class up the counts bear out); Check says what
// suncat check made of it ("fails", "waived by -allow", "").
type siteRow struct {
	Where, Base, Head, BasePred, HeadPred, Change string
	Up                                            bool
	Check                                         string
	Chart                                         template.HTML
}

// maxCompareCharts bounds the charts of a comparison: a chart is drawn
// for each site that grows faster or fails the check, the first ones.
const maxCompareCharts = 30

// compareViews renders c, one view per test family when it compares
// suites.
func compareViews(c *prioritize.Comparison, failures []prioritize.Failure) []compareView {
	check := map[*prioritize.SiteDiff]string{}
	for _, f := range failures {
		check[f.Site] = "fails"
		if f.Waived {
			check[f.Site] = "waived by -allow"
		}
	}
	cs := c.Families
	if len(cs) == 0 {
		cs = []*prioritize.Comparison{c}
	}
	charts := 0
	var out []compareView
	for _, fc := range cs {
		v := compareView{Family: fc.Family, Heading: prioritize.DiffHeading(fc), Note: fc.Note}
		for _, d := range fc.Sites {
			row := siteRow{Where: d.Where(), Base: prioritize.SideText(d.Base), Head: prioritize.SideText(d.Head),
				BasePred: prioritize.SidePrediction(d.Base), HeadPred: prioritize.SidePrediction(d.Head),
				Change: prioritize.ChangeText(d), Up: d.Change == prioritize.ChangeUp && !d.Noise, Check: check[d]}
			if (row.Up || row.Check != "") && charts < maxCompareCharts {
				row.Chart = template.HTML(siteChart(fc, d))
				charts++
			}
			v.Rows = append(v.Rows, row)
		}
		out = append(out, v)
	}
	return out
}

// siteChart draws a site's calls in BASE (circles) and HEAD (squares)
// against the shared sizes, each with its fitted class.
func siteChart(c *prioritize.Comparison, d *prioritize.SiteDiff) string {
	ch := chart{title: "calls", target: c.Target, format: prioritize.Number}
	for _, side := range []struct {
		name string
		s    *prioritize.SiteSide
	}{{"BASE", d.Base}, {"HEAD", d.Head}} {
		if side.s == nil {
			continue
		}
		s := series{name: side.name, fit: side.s.Fit, pred: side.s.Predicted, mark: side.name + " " + prioritize.SidePrediction(side.s)}
		for i, n := range side.s.Counts {
			if i < len(c.Sizes) {
				s.xs, s.ys = append(s.xs, c.Sizes[i]), append(s.ys, float64(n))
			}
		}
		ch.series = append(ch.series, s)
	}
	return ch.svg()
}

// verdict is suncat check's outcome in words.
func verdict(failures []prioritize.Failure) string {
	failed := 0
	for _, f := range failures {
		if !f.Waived {
			failed++
		}
	}
	if failed == 0 {
		return "check: ok, no site fails"
	}
	return "check: " + strconv.Itoa(failed) + " site(s) fail"
}
