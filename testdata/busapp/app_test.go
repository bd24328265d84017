package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
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

// TestPlantedBugsPerNavigation checks the exact counts the README
// documents, navigation by navigation of the demo's scenario (open a stop,
// go back, move down): the leaking observers, each of which reads the stop
// name once per navigation, and the serialized recently-viewed list, whose
// every route number and stop name is read through a getter.
func TestPlantedBugsPerNavigation(t *testing.T) {
	tests := []struct {
		stop      string
		observers int // (*Stop).Name calls from the observers (open.func1)
		shortName int // (*Route).ShortName calls from visit
		stopName  int // (*Stop).Name calls from visit
	}{
		{"Pike St & 3rd Ave", 1, 2, 8},
		{"Pine St & 4th Ave", 2, 4, 16},
		{"Westlake Center", 3, 7, 28},
		{"University St", 4, 10, 40},
	}
	a := newApp()
	var mu sync.Mutex
	for i, tt := range tests {
		var out bytes.Buffer
		if err := runScript(a, &mu, strings.NewReader("enter\n"), &out); err != nil {
			t.Fatal(err)
		}
		if got, want := out.String(), "ok stop "+tt.stop+"\n"; got != want {
			t.Errorf("navigation %d: acknowledged %q, want %q", i+1, got, want)
		}
		if n := a.state.Observers(); n != tt.observers {
			t.Errorf("navigation %d: %d observers re-read the stop name, want %d", i+1, n, tt.observers)
		}
		// The saved text holds one "[" per route number and one ";" per
		// stop name that visit read.
		if n := strings.Count(a.state.Saved, "["); n != tt.shortName {
			t.Errorf("navigation %d: %d route numbers serialized, want %d", i+1, n, tt.shortName)
		}
		if n := strings.Count(a.state.Saved, ";"); n != tt.stopName {
			t.Errorf("navigation %d: %d stop names serialized, want %d", i+1, n, tt.stopName)
		}
		if err := runScript(a, &mu, strings.NewReader("back\ndown\n"), &out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPrefetchBesideScript runs the background prefetcher while a script
// drives the UI, as main does; under -race it checks that the two share
// nothing unsafely, and that the prefetcher stops when told to.
func TestPrefetchBesideScript(t *testing.T) {
	a := newApp()
	var mu sync.Mutex
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		prefetch(a.city, stop)
		close(done)
	}()
	var out bytes.Buffer
	script := strings.Repeat("enter\nwait 6ms\nback\ndown\n", 3) + "recent\n"
	if err := runScript(a, &mu, strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "ok recent 3 stops\n") {
		t.Errorf("last acknowledgement is not the recently-viewed screen:\n%s", out.String())
	}
	close(stop)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("prefetch did not stop after its channel was closed")
	}
}

func TestScriptCommands(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"comments and blank lines", "# hi\n\n  down  \n", "ok stops Pine St & 4th Ave\n"},
		{"up stops at the top", "up\n", "ok stops Pike St & 3rd Ave\n"},
		{"down stops at the bottom", strings.Repeat("down\n", 9), "ok stops Pine St & 4th Ave\nok stops Westlake Center\nok stops University St\nok stops Pioneer Square\nok stops International District\nok stops Capitol Hill\nok stops Fremont Ave\nok stops Fremont Ave\nok stops Fremont Ave\n"},
		{"esc and backspace go back", "enter\nesc\nenter\nbackspace\n", "ok stop Pike St & 3rd Ave\nok stops Pike St & 3rd Ave\nok stop Pike St & 3rd Ave\nok stops Pike St & 3rd Ave\n"},
		{"recent lists visits", "enter\nback\nrecent\n", "ok stop Pike St & 3rd Ave\nok stops Pike St & 3rd Ave\nok recent 1 stops\n"},
		{"wait acknowledges", "wait 1ms\n", "ok stops Pike St & 3rd Ave\n"},
		{"quit ends the script", "quit\ndown\n", "ok quit\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := runScript(newApp(), &sync.Mutex{}, strings.NewReader(tt.script), &out); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("got:\n%swant:\n%s", out.String(), tt.want)
			}
		})
	}
}
