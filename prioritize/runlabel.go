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

// runLabels labels the runs of a summary made of one sub-trace per trace
// file (paths in start order) by what tells them apart: the name of each
// file's run (runName), followed, among runs of the same name, by an
// ordinal in start order.
func runLabels(paths []string) []string {
	labels := make([]string, len(paths))
	count := map[string]int{}
	for i, p := range paths {
		labels[i] = runName(p)
		count[labels[i]]++
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
