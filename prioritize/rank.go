package prioritize

import (
	"regexp"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// Which finding comes first (doc/findings.md, "The order of the
// findings"). The count predicted at the target size ranks the findings,
// after three tiers that put the defect first:
//
//   - Setup last: a finding whose responsible frame is in a _test.go file
//     (the test function or a helper of the test) grows because the
//     test's own input grows (a test of an N+1 must create N rows).
//   - With input sizes (Findings.InputSizes: sizes from -sizes, from the
//     labels of marks, files or subtests that name them), growth per
//     item, a class faster than linear, before work proportional to the
//     input: with -reads nearly every site grows linearly with the input,
//     and what the developer needs first is the work per item that grows.
//     With repetitions of one action (marks without a number, idle
//     splits, at=GETTER: sizes are their positions), linear growth per
//     repetition is itself the defect (a leak) and ranks by its calls.
//   - In a test (every label a test's), a frame found by a loop (or
//     sort, recursion, a dependency's loop, a goroutine per item) before
//     one found only as the frame that sets the site apart (WhyCaller):
//     the N+1 inside the code under test before a statement that merely
//     runs once per row the test made.

// generatedLabel is a label suncat made for a sub-trace of a repeated
// action: an unlabelled mark ("mark 3"), an idle split ("episode 3"),
// at=GETTER ("Stop.Name #3").
var generatedLabel = regexp.MustCompile(`^(mark [0-9]+|episode [0-9]+|.* #[0-9]+)$`)

// inputSizes reports whether sizes from where (SizesFrom) over these
// labels are input sizes rather than the positions of repetitions: given
// sizes are; positions, labels suncat made ("mark 3", "episode 3") and
// labels that only count 1, 2, 3, ... without a size word ("stop 1",
// "stop 2": the same action again, not "n=1", "n=2") are not.
func inputSizes(from string, labels []string, sizes []float64) bool {
	switch from {
	case SizesGiven:
		return true
	case SizesFromPositions:
		return false
	}
	word := false
	for _, l := range labels {
		if generatedLabel.MatchString(l) {
			return false
		}
		if _, t, ok := nameSize(l); ok && sizeWords.MatchString(t) {
			word = true
		}
	}
	return len(labels) > 0 && (word || !countsCases(sizes))
}

// testLabels reports whether every label names a test (suncat test's
// marks).
func testLabels(labels []string) bool {
	for _, l := range labels {
		if !IsTestLabel(l) {
			return false
		}
	}
	return len(labels) > 0
}

// setupFrame reports whether a frame is the test's own code: a function
// in a _test.go file.
func setupFrame(fr tracefile.Frame) bool {
	return strings.HasSuffix(fr.File, "_test.go")
}

// tier is the rank tier of a finding or site by its responsible frame,
// how it was found, its class and whether a clock paces it (Site.Clock,
// after all the others): lower first.
func (f *Findings) tier(fr tracefile.Frame, why string, c Class, clock string) int {
	t := 0
	if clock != "" {
		t += 8
	}
	if setupFrame(fr) {
		t += 4
	}
	if f.InputSizes && c <= ClassLinear {
		t += 2
	}
	if f.Test && why == WhyCaller {
		t++
	}
	return t
}

// rankSites puts the growing sites first, by tier, then predicted count
// at the target, then class (faster first), then calls; the others by
// calls.
func (f *Findings) rankSites() {
	sites := f.Sites
	sort.SliceStable(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if ga, gb := a.Fit.Grows(), b.Fit.Grows(); ga != gb {
			return ga
		}
		if a.Fit.Grows() {
			ta := f.tier(a.ResponsibleFrame(), a.Why, a.Fit.Class, a.Clock)
			if tb := f.tier(b.ResponsibleFrame(), b.Why, b.Fit.Class, b.Clock); ta != tb {
				return ta < tb
			}
			if a.Predicted != b.Predicted {
				return a.Predicted > b.Predicted
			}
			if a.Fit.Class != b.Fit.Class {
				return a.Fit.Class > b.Fit.Class
			}
		}
		return a.Total > b.Total
	})
}

// rankFindings orders findings by tier, then, of one class, those that
// make a database query or an HTTP request (-calls sql,http: hooked
// calls, each worth thousands of getter calls) first, then predicted
// count, then class.
func (f *Findings) rankFindings(out []*Finding) {
	io := make(map[*Finding]bool, len(out))
	for _, d := range out {
		io[d] = d.io()
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ta := f.tier(a.Frame, a.Why, a.Fit.Class, a.Clock)
		if tb := f.tier(b.Frame, b.Why, b.Fit.Class, b.Clock); ta != tb {
			return ta < tb
		}
		if a.Fit.Class == b.Fit.Class && io[a] != io[b] {
			return io[a]
		}
		if a.Predicted != b.Predicted {
			return a.Predicted > b.Predicted
		}
		return a.Fit.Class > b.Fit.Class
	})
}

// io reports whether one of the finding's sites is a hooked call: a
// database query or an HTTP request (-calls sql,http).
func (d *Finding) io() bool {
	for _, s := range d.Sites {
		if hookedCall(s.Getter) {
			return true
		}
	}
	return false
}
