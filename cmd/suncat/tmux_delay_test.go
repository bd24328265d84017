package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDelayNPlusOneInTmux: on the events sample's N+1 recorded with -calls
// sql, the viewer's delay box takes -calls sql on and, the marked event
// being a call, runs -compare without being asked (c switches to -run and
// back); a gives the program's argument, and enter runs it: each of the 5
// queries of a run of size 5 is delayed, 5 x 1ms expected.
func TestDelayNPlusOneInTmux(t *testing.T) {
	dir := t.TempDir()
	bin := buildSuncat(t, dir)
	app := filepath.Join(dir, "eventsapp")
	if err := os.CopyFS(app, os.DirFS("../../testdata/eventsapp")); err != nil {
		t.Fatal(err)
	}
	var traces []string
	for _, n := range []string{"5", "10", "20"} {
		tr := filepath.Join(dir, "tr"+n)
		cmd := exec.Command(bin, "run", "-calls", "sql", "-trace", tr, ".", "--", n)
		cmd.Dir = app
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("suncat run: %v\n%s", err, out)
		}
		traces = append(traces, tr)
	}
	v := startView(t, bin, 130, 45, append([]string{"-sizes", "5,10,20"}, traces...)...)
	s := v.screen("main.loadItems")
	if strings.Contains(s, "suncatCall") {
		t.Errorf("suncat's hook frame on the screen:\n%s", s)
	}
	v.send("Space", "d")
	s = v.screen("Delay the marked calls")
	if !strings.Contains(s, "--getter 'database/sql.(*DB).QueryContext' -calls sql") || !strings.Contains(s, "-compare .") {
		t.Errorf("delay box (a call marked: -compare by default):\n%s", s)
	}
	v.send("c")
	s = v.screen("-run .")
	v.send("c", "a", "5", "Enter")
	s = v.screen("-compare . -- {} 5")
	v.send("Enter")
	// The status line says the run finished after the output's last
	// line (the verdict) is drawn: wait for it.
	s = v.screen("last run: finished")
	if !strings.Contains(s, "verdict:") || !regexp.MustCompile(`main\.main +\S+ +\S+ +\S+ +5 +5ms`).MatchString(s) {
		t.Errorf("after the run:\n%s", s)
	}
	v.send("Escape")
	v.quit()
}
