package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDemo runs the README's first command and checks that its summary
// shows both planted bugs of the bus app growing by sub-trace, and the
// stop list staying flat.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bus app")
	}
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"demo"}); err != nil {
		t.Fatalf("demo: %v\n%s", err, errb.String())
	}
	text := out.String()
	// The demo keeps its trace for the user; the test does not.
	if m := regexp.MustCompile(`(?m)^trace: (.+) \(\d+ events\)$`).FindStringSubmatch(text); m != nil {
		os.RemoveAll(filepath.Dir(m[1]))
	} else {
		t.Errorf("demo output names no trace:\n%s", text)
	}
	for _, re := range []string{
		// Findings: the two planted bugs, each linear with the
		// navigations (README of the bus app): visit serializes the
		// whole recently-viewed list (three getters), SetCurrent calls
		// every observer ever registered.
		`(?m)^== Findings: 4 of \d+ call sites grow, 2 findings \(sizes from labels: 1, 2, 3, 4; predicted at 40; by calls: a repetition should not grow\)$`,
		`(?m)^ 1\. linear +model\.\(\*ViewState\)\.visit \(state\.go:\d+\)  \d+\|\d+\|\d+\|\d+ -> [\d.]+ at 40[^\n]*\n    \(\*Stop\)\.Name; [^\n]*\n    3 getters, 1 caller: \(\*Stop\)\.Name, \(\*Route\)\.ShortName, \(\*Stop\)\.Code; from model\.\(\*ViewState\)\.SetCurrent`,
		`(?m)^ 2\. linear +model\.\(\*ViewState\)\.SetCurrent \(state\.go:\d+\)  1\|2\|3\|4 -> 40 at 40\n    \(\*Stop\)\.Name via main\.\(\*app\)\.open\.func1 \(main\.go:\d+\); "University St" x4$`,
		// Count Summary: the observer's reads of the stop name grow by one.
		`(?m)^a\^1\|2\|3\|4 +\(\*Stop\).Name +main.\(\*app\).open.func1 \(main.go:\d+\)$`,
		// The serialization of the recently-viewed list grows too.
		`(?m)^[a-z]\^\d+\|\d+\|\d+\|\d+ +\(\*Route\).ShortName +model.\(\*ViewState\).visit`,
		// The stop list costs the same every time.
		`(?m)^[a-z]\^16\|16\|16\|16 +\(\*Stop\).Name +main.\(\*app\).View`,
		// The top prioritized pattern is increasing and is the stop name.
		`(?m)^== Prioritized Patterns \(top 8 of \d+\)\nincreasing a\^[0-9|]+ +max 4 +trend +\+1.00 +in [A-Z] +\(\*Stop\).Name$`,
		`(?m)^The top increasing pattern, a\^[0-9|]+, is a\^1\|2\|3\|4 of the Count Summary, finding 2\.$`,
		`stop 4: "[^"]+" x4\n`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("demo output does not match %s:\n%s", re, text)
		}
	}
	checkOneStory(t, text)
}

// checkOneStory reads the demo's text and checks that its levels agree:
// the story names the findings in the findings' order, with the same
// counts; the Count Summary letters it gives each finding sum to those
// counts; the top pattern's terminal reads the same as in the Count
// Summary.
func checkOneStory(t *testing.T, text string) {
	t.Helper()
	findings := regexp.MustCompile(`(?m)^ *(\d+)\. [a-z ^]+? +(\S+ \(\S+:\d+\))  ([\d|]+) -> `).FindAllStringSubmatch(text, -1)
	story := regexp.MustCompile(`(?m)^  (\d+)\. (\S+ \(\S+:\d+\)), [a-z ^]+: .* \(([a-z ]+)\), together ([\d|]+)$`).FindAllStringSubmatch(text, -1)
	counts := map[string][]int{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z]+)\^([\d|]+) `).FindAllStringSubmatch(text, -1) {
		counts[m[1]] = ints(m[2])
	}
	if len(findings) == 0 || len(story) != len(findings) {
		t.Fatalf("%d findings, %d story lines:\n%s", len(findings), len(story), text)
	}
	for i, f := range findings {
		st := story[i]
		if f[1] != st[1] || f[2] != st[2] || f[3] != st[4] {
			t.Errorf("finding %s %s %s, story %s %s %s", f[1], f[2], f[3], st[1], st[2], st[4])
		}
		sum := make([]int, len(ints(st[4])))
		for _, l := range strings.Fields(st[3]) {
			for k, c := range counts[l] {
				if k < len(sum) {
					sum[k] += c
				}
			}
		}
		if fmt.Sprint(sum) != fmt.Sprint(ints(st[4])) {
			t.Errorf("finding %s: letters %s sum to %v, want %s", st[1], st[3], sum, st[4])
		}
	}
	m := regexp.MustCompile(`(?m)^The top increasing pattern, \S+, is ([a-z]+)\^([\d|]+) of the Count Summary`).FindStringSubmatch(text)
	if m == nil || fmt.Sprint(counts[m[1]]) != fmt.Sprint(ints(m[2])) {
		t.Errorf("the top pattern's terminal does not read as in the Count Summary (%q):\n%s", m, text)
	}
}

func ints(s string) []int {
	var out []int
	for _, p := range strings.Split(s, "|") {
		n, _ := strconv.Atoi(p)
		out = append(out, n)
	}
	return out
}
