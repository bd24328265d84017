package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceErrorStatus pins, for every command that reads traces from its
// command line, the exit status of the two kinds of error on that path: a
// trace that does not read is a failure (1), a summary that the options do
// not allow is misuse (2). Each is one line, prefixed once with the
// command. (demo and test summarize only traces they recorded themselves,
// with fixed options, and test's summary is a hint after go test's own
// status, so neither can be given such an error.)
func TestTraceErrorStatus(t *testing.T) {
	trace, err := filepath.Abs("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.suncat")
	if err := os.WriteFile(bad, []byte("not a trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.suncat")
	empty := t.TempDir()
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	for _, tc := range []struct {
		terminal bool
		args     []string
		status   int
	}{
		{false, []string{"summary", bad}, 1},
		{false, []string{"summary", missing}, 1},
		{false, []string{"summary", empty}, 1},
		{false, []string{"summary", "-split", "weekly", trace}, 2},
		{false, []string{"summary", "-goroutines", "nosuch", trace}, 2},
		{false, []string{"summary", "-run", "NoSuchTest", trace}, 2},
		{false, []string{"view", bad}, 1},
		{false, []string{"view", missing}, 1},
		{false, []string{"view", "-split", "weekly", trace}, 2},
		{false, []string{"view", "-goroutines", "nosuch", trace}, 2},
		// On a terminal the options and files are checked before the
		// viewer starts.
		{true, []string{"view", missing}, 1},
		{true, []string{"view", empty}, 1},
		{true, []string{"view", "-split", "weekly", trace}, 2},
		{true, []string{"view", "-goroutines", "("}, 2},
		{false, []string{"pprof", bad}, 1},
		{false, []string{"pprof", missing}, 1},
		{false, []string{"pprof", "-split", "weekly", trace}, 2},
		{false, []string{"pprof", "-run", "NoSuchTest", trace}, 2},
		// delay reads -trace before it analyzes the package, and checks
		// -compare's -split before it builds.
		{false, []string{"delay", "--getter", "a", "-trace", bad}, 1},
		{false, []string{"delay", "--getter", "a", "-trace", missing}, 1},
		{false, []string{"delay", "-compare", "--getter", "a", "-split", "weekly"}, 2},
	} {
		isTerminal = func(io.Writer) bool { return tc.terminal }
		var out, errb bytes.Buffer
		status := exitCode(run(&out, &errb, tc.args), &errb)
		name := strings.Join(tc.args, " ")
		if status != tc.status {
			t.Errorf("%s (terminal %v): exit status %d, want %d; stderr %q", name, tc.terminal, status, tc.status, errb.String())
		}
		msg := errb.String()
		prefix := "suncat: " + tc.args[0] + ": "
		if !strings.HasPrefix(msg, prefix) || strings.Count(msg, "\n") != 1 || strings.Count(msg, prefix) != 1 {
			t.Errorf("%s: stderr %q, want one line prefixed %q once", name, msg, prefix)
		}
	}
}

// TestTraceFiles: directories stand for their traces in name order, files
// for themselves, and a directory without a trace is an error.
func TestTraceFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.suncat", "a.suncat", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "x.suncat")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, notes, err := traceFiles([]string{file, dir})
	if err != nil || len(notes) != 0 {
		t.Fatal(err, notes)
	}
	want := []string{file, filepath.Join(dir, "a.suncat"), filepath.Join(dir, "b.suncat")}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path())
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", paths, want)
	}
	if _, _, err := traceFiles([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no trace (*.suncat) in this directory") {
		t.Errorf("empty directory: err %v", err)
	}
}
