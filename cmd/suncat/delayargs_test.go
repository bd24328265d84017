package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/delay"
)

// TestParseDelay: delay's command line becomes its configuration, build
// flags included; misuse is refused before any work.
func TestParseDelay(t *testing.T) {
	c, err := parseDelay(io.Discard, []string{"-compare", "--getter", "a", "--getter", "Stop.Name", "-d", "3ms", "-mode", "spin",
		"-split", "idle=250ms", "-goroutines", "main.main", "-race", "-tags", "x", "./cmd/app", "--", "{}", "-script", "s.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if c.d != 3*time.Millisecond || c.mode != "spin" || !c.compare || c.split != "idle=250ms" || c.goroutines.String() != "main.main" ||
		strings.Join(c.getters, " ") != "a Stop.Name" || c.pkg != "./cmd/app" || strings.Join(c.progArgs, " ") != "{} -script s.txt" ||
		!c.sel.race || c.sel.tags != "x" {
		t.Errorf("config %+v", c)
	}
	if c, err := parseDelay(io.Discard, []string{"--getter", "a"}); err != nil || c.pkg != "." || c.d != time.Millisecond || c.mode != "sleep" {
		t.Errorf("defaults: %+v, %v", c, err)
	}
	for _, bad := range [][]string{
		{"--getter", "a", "-d", "-1ms"},
		{"--getter", "a", "-mode", "fast"},
		{"-d", "1ms"},
		{"--getter", "a", "-run", "-compare"},
		{"--getter", "a", "-o", "x", "-compare"},
		{"--getter", "a", "-compare", "-goroutines", "("},
		{"--getter", "a", "-compare", "-split", "weekly"},
		{"--getter", "a", "p1", "p2"},
	} {
		var u usageError
		if _, err := parseDelay(io.Discard, bad); !errors.As(err, &u) {
			t.Errorf("%q: error %v, want misuse", bad, err)
		}
	}
}

// TestPrintDelayReport: one row per sub-trace, calls elsewhere beside the
// goroutine's own, the note and the verdict.
func TestPrintDelayReport(t *testing.T) {
	var b bytes.Buffer
	printDelayReport(&b, &delay.Report{
		Rows: []delay.Row{
			{SubTrace: 1, Label: "stop 1", Goroutine: "main.main", Plain: time.Millisecond, Delayed: 21 * time.Millisecond,
				Growth: 20 * time.Millisecond, Calls: 10, Expected: 20 * time.Millisecond, Verdict: delay.Critical},
			{SubTrace: 2, Label: "stop 2", Goroutine: "main.main", Calls: 0, Elsewhere: 3, Verdict: delay.Off},
		},
		Verdict: delay.Critical, Note: "the plain run has 3 sub-traces",
	})
	out := b.String()
	for _, want := range []string{
		"sub-trace  goroutine  plain",
		"1 stop 1   main.main  1ms    21ms     20ms    10 ",
		"0 (+3 elsewhere)",
		"note: the plain run has 3 sub-traces\n",
		"\nverdict: " + delay.Critical + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}
