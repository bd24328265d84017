package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestViewInTmux runs the real suncat view in a real terminal (tmux),
// types keys and reads the screen.
func TestViewInTmux(t *testing.T) {
	dir := t.TempDir()
	bin := buildSuncat(t, dir)
	trace, _ := filepath.Abs("../../testdata/traces/busapp.suncat")
	v := startView(t, bin, 80, 24, trace)
	tmux, screen, send := v.tmux, v.screen, v.send
	// The Findings first: the leaking observer's stop names grow.
	s := screen("› linear    → 532    model.(*ViewState).vis")
	if !strings.Contains(s, "0 Findings") || !strings.Contains(s, "finding model.(*ViewState).") {
		t.Errorf("first screen:\n%s", s)
	}
	// Enter: the finding's sites (three getters of one defect) in the
	// Count Summary, back to the Findings.
	send("Enter", "4")
	s = screen("site (*Stop).Name +2 · 1/3")
	if !strings.Contains(s, "› b^1|2|3|4     (*Stop).Code") || !strings.Contains(s, "d^8|16|28|40  (*Stop).Name") {
		t.Errorf("the site's stacks:\n%s", s)
	}
	send("BSpace", "1", "g")
	s = screen("incr  a^2|3|4")
	if !strings.Contains(s, "terminal a (*Stop).Name") {
		t.Errorf("Prioritized Patterns:\n%s", s)
	}
	// Drill into A from the Full Grammar, and back.
	send("3", "j", "Enter")
	s = screen("S > A")
	if !strings.Contains(s, "C^2  C -> c d^4") {
		t.Errorf("after drilling into A:\n%s", s)
	}
	send("BSpace")
	screen("› A -> a b C^2 D^2 E^2")
	// Search a string value, in the Count Summary.
	send("4", "/")
	tmux("send-keys", "-t", "view", "-l", "Pike St")
	send("Enter")
	s = screen("/Pike St")
	if strings.Contains(s, "(*Route).ShortName") || !strings.Contains(s, "(*Stop).Name") {
		t.Errorf("search for a stop name:\n%s", s)
	}
	send("Escape")
	// Mark the top pattern's getter and show the delay command.
	send("1", "Space", "d")
	s = screen("Delay the marked getters")
	if !strings.Contains(s, "--getter 'example.com/busapp/model.(*Stop).Name'") || !strings.Contains(s, "testdata/busapp") {
		t.Errorf("delay box:\n%s", s)
	}
	send("Escape")
	// A larger terminal: the list gets wider and shows whole words.
	tmux("resize-window", "-t", "view", "-x", "140", "-y", "40")
	s = screen("›*increasing a^2|3|4")
	if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) != 40 {
		t.Errorf("%d lines at 140x40:\n%s", len(lines), s)
	}
	v.quit()
}
