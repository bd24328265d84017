package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// TestScenario runs the demo's scenario and checks the planted bugs: one
// more observer per navigation, and the saved list growing with it.
func TestScenario(t *testing.T) {
	a := newApp()
	var mu sync.Mutex
	var out bytes.Buffer
	script := strings.Repeat("enter\nback\ndown\n", 4)
	if err := runScript(a, &mu, strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "ok "); n != 12 {
		t.Errorf("%d acknowledgements, want 12:\n%s", n, out.String())
	}
	if n := a.state.Observers(); n != 4 {
		t.Errorf("%d observers after 4 navigations, want 4 (the planted leak)", n)
	}
	if n := strings.Count(a.state.Saved, "\n"); n != 4 {
		t.Errorf("saved list has %d stops, want 4", n)
	}
	if !strings.HasPrefix(out.String(), "ok stop Pike St & 3rd Ave\n") {
		t.Errorf("first acknowledgement: %q", out.String())
	}
}

func TestScriptErrors(t *testing.T) {
	var out bytes.Buffer
	err := runScript(newApp(), &sync.Mutex{}, strings.NewReader("enter\nfly\n"), &out)
	if err == nil || err.Error() != `line 2: unknown command "fly" (want up, down, enter, back, recent, wait DURATION, quit)` {
		t.Errorf("error: %v", err)
	}
}
