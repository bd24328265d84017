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
	s := screen("incr  a^2|3|4")
	if !strings.Contains(s, "1 Patterns") || !strings.Contains(s, "terminal a (*Stop).Name") {
		t.Errorf("first screen:\n%s", s)
	}
	for _, k := range []string{"3", "j", "Enter"} {
		tmux("send-keys", "-t", "view", k)
		time.Sleep(100 * time.Millisecond)
	}
	s = screen("S > A")
	if !strings.Contains(s, "C^2  C -> c d^4") {
		t.Errorf("after drilling into A:\n%s", s)
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
