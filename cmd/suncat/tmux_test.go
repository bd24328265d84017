package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestViewInTmux runs the real suncat view in a real terminal (tmux),
// types keys and reads the screen.
func TestViewInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it when it can)")
	}
	if testing.Short() {
		t.Skip("builds suncat and drives it in tmux")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "suncat")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	trace, _ := filepath.Abs("../../testdata/traces/busapp.suncat")
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", "view", "-x", "80", "-y", "24", "env", "NO_COLOR=1", bin, "view", trace)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	screen := func(want string) string {
		var s string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			s = tmux("capture-pane", "-t", "view", "-p")
			if strings.Contains(s, want) {
				return s
			}
		}
		t.Fatalf("screen never showed %q:\n%s", want, s)
		return ""
	}
	// The Findings first: the leaking observer's stop names grow.
	s := screen("› linear    → 532    (*Stop).Name")
	if !strings.Contains(s, "0 Findings") || !strings.Contains(s, "called from model.(*ViewState).") {
		t.Errorf("first screen:\n%s", s)
	}
	send := func(ks ...string) {
		for _, k := range ks {
			tmux("send-keys", "-t", "view", k)
			time.Sleep(100 * time.Millisecond)
		}
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
	tmux("send-keys", "-t", "view", "q")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := exec.Command("tmux", "-S", sock, "has-session", "-t", "view").Run(); err != nil {
			return // the viewer quit and the session closed
		}
	}
	t.Errorf("q did not quit the viewer")
	_ = os.Remove(sock)
}
