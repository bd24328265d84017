package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

var updateFixture = flag.Bool("update-fixture", false, "TestBusAppFixture: record the bus app's scenario into testdata/traces/busapp.suncat")

const busAppFixture = "../../testdata/traces/busapp.suncat"

// TestBusAppFixture records the bus app's scripted scenario end to end
// (instrument, run, four marked stops: what suncat demo does) and checks
// that the committed fixture, on which the summary's acceptance test and
// goldens run, still is what the app records: the same main-goroutine
// grammar and Count Summary. After a change to the bus app or the
// instrumenter, rerun with -update-fixture (then go test ./prioritize
// -update for the goldens).
func TestBusAppFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bus app")
	}
	dir, err := findBusApp()
	if err != nil {
		t.Fatal(err)
	}
	path, err := recordDemo(dir, 4, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(path)) })
	if *updateFixture {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(busAppFixture, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", busAppFixture, len(data))
	}
	fresh, fixture := mainGroupText(t, path), mainGroupText(t, busAppFixture)
	if fresh != fixture {
		t.Errorf("the bus app now records a different scenario than %s; rerun with -update-fixture\nrecorded:\n%s\nfixture:\n%s", busAppFixture, fresh, fixture)
	}
}

// mainGroupText is the main goroutine's Count Summary and Full Grammar.
func mainGroupText(t *testing.T, path string) string {
	t.Helper()
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range s.Groups {
		if g.Goroutine == "main.main" {
			return prioritize.Header(g) + "\n" + prioritize.Text(g, []string{"count", "full"}, prioritize.SummarizeOptions{}, "kind", nil)
		}
	}
	var names []string
	for _, g := range s.Groups {
		names = append(names, g.Goroutine)
	}
	t.Fatalf("%s: no main.main goroutine group (groups: %s)", path, strings.Join(names, ", "))
	return ""
}
