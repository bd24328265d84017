package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestViewFamiliesInTmux runs suncat test on the suite of
// testdata/script/test_families.txtar, then suncat view on its traces in
// a real terminal (tmux): the Findings list each test family's findings,
// family name first, and the details give the family's sizes.
func TestViewFamiliesInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it when it can)")
	}
	if testing.Short() {
		t.Skip("builds suncat, runs a suite under it and drives the viewer in tmux")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "suncat")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ar, err := txtar.ParseFile("testdata/script/test_families.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "lib/") {
			continue
		}
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	traces := filepath.Join(dir, "tr")
	cmd := exec.Command(bin, "test", "-traces", traces, "./...")
	cmd.Dir = filepath.Join(dir, "lib")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("suncat test: %v\n%s", err, out)
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", "view", "-x", "120", "-y", "40", "env", "NO_COLOR=1", bin, "view", traces)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	screen := func(want string) string {
		var s string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			s = tmux("capture-pane", "-t", "view", "-p")
			if strings.Contains(s, want) {
				return s
			}
		}
		t.Fatalf("screen never showed %q:\n%s", want, s)
		return ""
	}
	// The families, the quadratic one first, each row named by its family.
	s := screen("› TestPairs  quadratic")
	for _, w := range []string{
		"  TestFind   linear ",
		"in test family TestPairs",
		"calls per size",
		"Findings per test family: 2 of 2 families grow, ranked by their top finding; 4 other test(s) give no class",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("screen lacks %q:\n%s", w, s)
		}
	}
	if strings.Contains(s, "positions") {
		t.Errorf("the whole run's findings (sizes from positions) are shown:\n%s", s)
	}
	// Down to the second family: its details.
	tmux("send-keys", "-t", "view", "j")
	s = screen("in test family TestFind")
	if !strings.Contains(s, "grows as linear") {
		t.Errorf("TestFind's details:\n%s", s)
	}
	tmux("send-keys", "-t", "view", "q")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := exec.Command("tmux", "-S", sock, "has-session", "-t", "view").Run(); err != nil {
			return // the viewer quit and the session closed
		}
	}
	t.Errorf("q did not quit the viewer")
}
