package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestViewFamiliesInTmux runs suncat test on the suite of
// testdata/script/test_families.txtar, then suncat view on its traces in
// a real terminal (tmux): the Findings list each test family's findings,
// family name first, and the details give the family's sizes.
func TestViewFamiliesInTmux(t *testing.T) {
	dir := t.TempDir()
	bin := buildSuncat(t, dir)
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
	v := startView(t, bin, 120, 40, traces)
	tmux, screen := v.tmux, v.screen
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
	v.quit()
}
