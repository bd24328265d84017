package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestErrorPrefix: the dispatcher names the command in its errors, once,
// on one line, and keeps their kind: one misuse per command (exit 2), and
// failures (exit 1) where they need no build.
func TestErrorPrefix(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
	}{
		{[]string{"getters", "-match", "("}, 2},
		{[]string{"instrument", "-mod", "mod"}, 2},
		{[]string{"run", "-skip", "(", "."}, 2},
		{[]string{"run", "a", "b"}, 2},
		{[]string{"test", "-labels", "other"}, 2},
		{[]string{"delay", "--getter", "x", "-d", "soon"}, 2},
		// delay takes the build flags of instrument, run and test.
		{[]string{"delay", "--getter", "x", "-race", "-ldflags", "-s", "-gcflags", "-N", "-tags", "t", "-mod", "mod"}, 2},
		{[]string{"test", "-getters", "("}, 2},
		{[]string{"demo", "-stops", "0"}, 2},
		{[]string{"events", "a", "b"}, 2},
		{[]string{"events", "no-such-file.suncat"}, 1},
		{[]string{"grammar", "a", "b"}, 2},
		{[]string{"grammar", "no-such-file.txt"}, 1},
		{[]string{"version", "x"}, 2},
		{[]string{"clean", "x"}, 2},
		{[]string{"summary", "-sort", "size", "t.suncat"}, 2},
		{[]string{"view", "-frames", "-1", "t.suncat"}, 2},
		{[]string{"pprof"}, 2},
		{[]string{"diff", "a"}, 2},
		{[]string{"check", "-max", "fast", "t.suncat"}, 2},
		{[]string{"check", "-max", "linear", "no-such-file.suncat"}, 1},
		{[]string{"diff", "no-such-a.suncat", "no-such-b.suncat"}, 1},
		{[]string{"mark", "-pid", "1", "-trace", "t.suncat"}, 2},
		{[]string{"pause", "label"}, 2},
		{[]string{"resume", "-wait", "-1s"}, 2},
	} {
		var out, errb bytes.Buffer
		status := exitCode(run(&out, &errb, tc.args), &errb)
		prefix := "suncat: " + tc.args[0] + ": "
		msg := errb.String()
		if status != tc.status || !strings.HasPrefix(msg, prefix) || strings.Count(msg, prefix) != 1 || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: exit status %d, stderr %q; want %d and one line prefixed %q once", tc.args, status, msg, tc.status, prefix)
		}
	}
}

// TestFlagErrorOneLine: an unknown flag, for every command, is one line
// that names the command and says where the usage is, exit status 2, as
// the go command does; no usage text follows.
func TestFlagErrorOneLine(t *testing.T) {
	for name := range commands {
		var out, errb bytes.Buffer
		status := exitCode(run(&out, &errb, []string{name, "-bogus"}), &errb)
		want := "suncat: " + name + ": flag provided but not defined: -bogus; run 'suncat " + name + " -h' for usage\n"
		if status != 2 || errb.String() != want || out.Len() != 0 {
			t.Errorf("%s -bogus: exit status %d, stdout %q, stderr %q; want 2 and %q", name, status, out.String(), errb.String(), want)
		}
	}
}

func TestLastElem(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/alecthomas/chroma/v2":          "chroma",
		"github.com/pelletier/go-toml/v2/unstable": "unstable",
		"gopkg.in/yaml.v3":                         "yaml",
		"example.com/app":                          "app",
		"main":                                     "main",
		"example.com/v2":                           "example.com",
		"example.com/vx":                           "vx",
	} {
		if got := lastElem(path); got != want {
			t.Errorf("lastElem(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestHelpHasExamples: every command's help shows how it is called, and
// its usage line has no trailing space.
func TestHelpHasExamples(t *testing.T) {
	for name, c := range commands {
		if name == "version" {
			continue // no arguments, no flags: nothing to show
		}
		if !strings.Contains(c.long, "\nExamples:\n") {
			t.Errorf("suncat %s -h has no Examples section", name)
		}
	}
	var b strings.Builder
	printCommandHelp(&b, commands["version"], nil)
	if first, _, _ := strings.Cut(b.String(), "\n"); first != "usage: suncat version" {
		t.Errorf("version usage line = %q", first)
	}
}

// TestReportBenchWithoutSummary: when the traces are left to suncat
// summary (too big), the benchmark lines have no calls per op, and their
// heading does not promise them.
func TestReportBenchWithoutSummary(t *testing.T) {
	var b strings.Builder
	reportBench(&b, nil, map[string]float64{"BenchmarkFind/n=10-2": 515.7}, map[string]float64{"BenchmarkFind/n=10-2": 19.6}, []string{"BenchmarkFind/n=10-2"})
	if out := b.String(); strings.Contains(out, "calls") || !strings.Contains(out, "515.7 ns/op recorded; plain 19.6 ns/op") {
		t.Errorf("reportBench without a summary:\n%s", out)
	}
}
