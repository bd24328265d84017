package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtmp"
)

// tmuxView is suncat view running in a real terminal (tmux) for a test.
type tmuxView struct {
	t    *testing.T
	sock string
}

// buildSuncat builds the suncat command into dir and returns its path,
// skipping the test where tmux is missing or under -short.
func buildSuncat(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it when it can)")
	}
	if testing.Short() {
		t.Skip("builds suncat and drives it in tmux")
	}
	bin := filepath.Join(dir, "suncat")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return bin
}

// startView starts "bin view args..." in a tmux session of w x h cells
// with its own server socket, in a short folder (socket paths have a
// limit that a long TMPDIR's test folders pass), killed when the test
// ends.
func startView(t *testing.T, bin string, w, h int, args ...string) *tmuxView {
	v := &tmuxView{t: t, sock: filepath.Join(testtmp.ShortDir(t), "tmux.sock")}
	cmd := append([]string{"new-session", "-d", "-s", "view", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "env", "NO_COLOR=1", bin, "view"}, args...)
	v.tmux(cmd...)
	t.Cleanup(func() { exec.Command("tmux", "-S", v.sock, "kill-server").Run() })
	return v
}

func (v *tmuxView) tmux(args ...string) string {
	v.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", v.sock}, args...)...).CombinedOutput()
	if err != nil {
		v.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen waits up to 20 s for the screen to show want and returns it.
func (v *tmuxView) screen(want string) string {
	v.t.Helper()
	var s string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		s = v.tmux("capture-pane", "-t", "view", "-p")
		if strings.Contains(s, want) {
			return s
		}
	}
	v.t.Fatalf("screen never showed %q:\n%s", want, s)
	return ""
}

// send types keys, one at a time.
func (v *tmuxView) send(keys ...string) {
	for _, k := range keys {
		v.tmux("send-keys", "-t", "view", k)
		time.Sleep(100 * time.Millisecond)
	}
}

// quit types q and checks that the viewer quits and its session closes.
func (v *tmuxView) quit() {
	v.t.Helper()
	v.tmux("send-keys", "-t", "view", "q")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := exec.Command("tmux", "-S", v.sock, "has-session", "-t", "view").Run(); err != nil {
			return // the viewer quit and the session closed
		}
	}
	v.t.Errorf("q did not quit the viewer")
}
