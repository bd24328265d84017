package prioritize

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// runOrdinal is the part of a run's label that only numbers runs which
// nothing else tells apart: " (run 2)". It is no input size (LabelSize
// ignores it).
var runOrdinal = regexp.MustCompile(` \(run [0-9]+\)$`)

// runName is what a trace file's name says of its run: the name without
// logrt's process-unique suffix (-PID-TIME) and without ".suncat":
// "tool" for tool-5507-20261123T090435.476956073.suncat.
func runName(path string) string {
	base := filepath.Base(path)
	base = traceSuffix.ReplaceAllString(base, "")
	return strings.TrimSuffix(base, ".suncat")
}

// A runOf is what runLabels knows of a trace file: its path and the
// program's arguments recorded in it.
type runOf struct {
	path string
	args []string
}

// runLabels labels the runs of a summary made of one sub-trace per trace
// file (in start order) by what tells them apart: the name of each file's
// run (runName); its arguments when runs of the same name had different
// ones (the arguments alone when every run has the same name: "-n 400");
// and last an ordinal in start order among runs still alike.
func runLabels(runs []runOf) []string {
	labels := make([]string, len(runs))
	lines := map[string]map[string]bool{} // name -> distinct argument lines
	sameName := true
	for i, r := range runs {
		labels[i] = runName(r.path)
		sameName = sameName && labels[i] == labels[0]
		if lines[labels[i]] == nil {
			lines[labels[i]] = map[string]bool{}
		}
		lines[labels[i]][strings.Join(r.args, " ")] = true
	}
	for i, r := range runs {
		a := strings.Join(r.args, " ")
		switch {
		case len(lines[labels[i]]) < 2 || a == "":
		case sameName:
			labels[i] = a
		default:
			labels[i] += " " + a
		}
	}
	count := map[string]int{}
	for _, l := range labels {
		count[l]++
	}
	nth := map[string]int{}
	for i, l := range labels {
		if count[l] > 1 {
			nth[l]++
			labels[i] = fmt.Sprintf("%s (run %d)", l, nth[l])
		}
	}
	return labels
}
