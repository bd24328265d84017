package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
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
		// Findings: exactly the planted sites grow, each linearly with
		// the navigations (README of the bus app): the observer's reads,
		// one more per navigation, and the serialization of the list.
		`(?m)^== Findings: 4 of \d+ call sites grow \(sizes from labels: 1, 2, 3, 4; predicted at 40\)$`,
		`(?m)^ [1-4]\. linear +\(\*Stop\)\.Name +1\|2\|3\|4 -> 40 at 40\n    main\.\(\*app\)\.open\.func1 \(main\.go:\d+\); "University St" x4$`,
		`(?m)^ [1-4]\. linear +\(\*Stop\)\.Name +\d+\|\d+\|\d+\|\d+ -> [\d.]+ at 40[^\n]*\n    model\.\(\*ViewState\)\.visit \(state\.go:\d+\)`,
		`(?m)^ [1-4]\. linear +\(\*Route\)\.ShortName +\d+\|\d+\|\d+\|\d+ -> [\d.]+ at 40[^\n]*\n    model\.\(\*ViewState\)\.visit`,
		`(?m)^ [1-4]\. linear +\(\*Stop\)\.Code +1\|2\|3\|4 -> 40 at 40\n    model\.\(\*ViewState\)\.visit`,
		// Count Summary: the observer's reads of the stop name grow by one.
		`(?m)^a\^1\|2\|3\|4 +\(\*Stop\).Name +main.\(\*app\).open.func1 \(main.go:\d+\)$`,
		// The serialization of the recently-viewed list grows too.
		`(?m)^[a-z]\^\d+\|\d+\|\d+\|\d+ +\(\*Route\).ShortName +model.\(\*ViewState\).visit`,
		// The stop list costs the same every time.
		`(?m)^[a-z]\^16\|16\|16\|16 +\(\*Stop\).Name +main.\(\*app\).View`,
		// The top prioritized pattern is increasing and is the stop name.
		`(?m)^== Prioritized Patterns \(top 8 of \d+\)\nincreasing a\^[0-9|]+ +max 4 +trend +\+1.00 +in [A-Z] +\(\*Stop\).Name$`,
		`stop 4: "[^"]+" x4\n`,
	} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("demo output does not match %s:\n%s", re, text)
		}
	}
}
