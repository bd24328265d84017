package prioritize

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Where the sizes of the sub-traces came from (Findings.SizesFrom).
const (
	SizesFromLabels    = "labels"    // the last number of each label
	SizesFromPositions = "positions" // 1, 2, 3, ... in sub-trace order
	SizesGiven         = "given"     // Options.Sizes (-sizes)
)

var (
	lastNumber = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	// the process-unique part of a trace file's name (logrt's
	// createTrace): -<pid>-<start time>.suncat
	traceSuffix = regexp.MustCompile(`-[0-9]+-[0-9]{8}T[0-9]{6}\.[0-9]{9}\.suncat$`)
)

// LabelSize returns the last number in a sub-trace's label: 8 for
// "TestFind/n=8", 400 for "size 400" or for the trace file "n400.suncat"
// (the process-unique suffix logrt adds to a file's name, -PID-TIME, is
// not part of it, nor is the ordinal " (run N)" of runLabels).
func LabelSize(label string) (float64, bool) {
	label = sizedPart(label)
	all := lastNumber.FindAllString(label, -1)
	if len(all) == 0 {
		return 0, false
	}
	n, err := strconv.ParseFloat(all[len(all)-1], 64)
	return n, err == nil
}

// sizedPart is the part of a label that LabelSize takes its number
// from.
func sizedPart(label string) string {
	label = traceSuffix.ReplaceAllString(label, "")
	label = strings.TrimSuffix(label, ".suncat")
	label = runOrdinal.ReplaceAllString(label, "")
	label, _, _ = BenchN(label)
	return label
}

// mixedActions returns the actions that labels with sizes name when
// they name more than one, each at two sizes or more: the labels with
// their last number left out ("loop n=", "hash n="), in the order they
// come first; nil when the labels name one action (a test's subtests of
// one family, "n=100", "n=200"). The sizes of several actions fitted
// together say little of any of them.
func mixedActions(labels []string) []string {
	var order []string
	sizes := map[string]map[float64]bool{}
	for _, l := range labels {
		n, ok := LabelSize(l)
		if !ok {
			return nil
		}
		stem := actionStem(l)
		if sizes[stem] == nil {
			sizes[stem] = map[float64]bool{}
			order = append(order, stem)
		}
		sizes[stem][n] = true
	}
	var out []string
	for _, stem := range order {
		if len(sizes[stem]) >= 2 {
			out = append(out, stem)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// actionStem is a label without its last number: "loop n=" for "loop
// n=400".
func actionStem(label string) string {
	label = sizedPart(label)
	all := lastNumber.FindAllStringIndex(label, -1)
	if len(all) == 0 {
		return label
	}
	last := all[len(all)-1]
	return strings.TrimSpace(label[:last[0]] + label[last[1]:])
}

// Sizes returns the input size of each sub-trace and where it came from:
// the given sizes (one per sub-trace), else the last number of every
// label when every label has one, else the positions 1, 2, 3, ...
func Sizes(labels []string, given []float64) ([]float64, string, error) {
	if len(given) > 0 {
		if len(given) != len(labels) {
			return nil, "", fmt.Errorf("-sizes: %d sizes for %d sub-traces (%s)", len(given), len(labels), labelList(labels))
		}
		return append([]float64(nil), given...), SizesGiven, nil
	}
	sizes := make([]float64, len(labels))
	fromLabels := len(labels) > 0
	for i, l := range labels {
		n, ok := LabelSize(l)
		if !ok {
			fromLabels = false
			break
		}
		sizes[i] = n
	}
	if fromLabels {
		return sizes, SizesFromLabels, nil
	}
	for i := range sizes {
		sizes[i] = float64(i + 1)
	}
	return sizes, SizesFromPositions, nil
}

// ParseSizes parses a -sizes list: "50,100,200,400".
func ParseSizes(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("-sizes %s: %q is not a size (a number, 0 or more)", s, f)
		}
		out = append(out, n)
	}
	return out, nil
}

func labelList(labels []string) string {
	q := make([]string, 0, len(labels))
	for i, l := range labels {
		if i == 8 {
			q = append(q, "...")
			break
		}
		q = append(q, strconv.Quote(l))
	}
	return strings.Join(q, ", ")
}
