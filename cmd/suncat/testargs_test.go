package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSplitTestArgs(t *testing.T) {
	for _, tc := range []struct{ args, own, rest string }{
		{"-v ./x", "-v ./x", ""},
		{"./x -- -benchmem", "./x", "-benchmem"},
		{"./x -args -size 3", "./x", "-args -size 3"},
		{"./x --args -size 3", "./x", "--args -size 3"},
		// -args first: the rest, "--" included, is the test binaries'.
		{"./x -args -n -- y", "./x", "-args -n -- y"},
		// "--" first: -args after it is go test's, as given.
		{"./x -- -v -args -n", "./x", "-v -args -n"},
	} {
		own, rest := splitTestArgs(strings.Fields(tc.args))
		if !reflect.DeepEqual(own, fields(tc.own)) || !reflect.DeepEqual(rest, fields(tc.rest)) {
			t.Errorf("%q: got %q, %q; want %q, %q", tc.args, own, rest, tc.own, tc.rest)
		}
	}
}

func fields(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Fields(s)
}

func TestFlagValue(t *testing.T) {
	for _, tc := range []struct {
		flags       []string
		name, value string
		found       bool
	}{
		{[]string{"-json"}, "json", "true", true},
		{[]string{"--json=false"}, "json", "false", true},
		{[]string{"-run=X", "-test.count=3"}, "count", "3", true},
		{[]string{"-count", "2"}, "count", "true", true}, // value in the next argument: given all the same
		{[]string{"-count=1", "-count=5"}, "count", "5", true},
		{[]string{"-parallelism=2", "parallel"}, "parallel", "", false},
	} {
		v, ok := flagValue(tc.flags, tc.name)
		if v != tc.value || ok != tc.found {
			t.Errorf("flagValue(%q, %q) = %q, %v; want %q, %v", tc.flags, tc.name, v, ok, tc.value, tc.found)
		}
	}
}

// TestGoTestArgs: go test runs with -vet=off, and with -count=1 and
// -parallel=1 unless they are given (before or after "--", as -test.name
// too); then the flags given, the targets and what follows -args.
func TestGoTestArgs(t *testing.T) {
	for _, tc := range []struct {
		pass, after []string
		want        string
		parallel    bool
	}{
		{nil, nil, "test -overlay o.json -tags x -vet=off -count=1 -parallel=1 p1 p2", true},
		{[]string{"-count=3", "-v=true"}, nil, "test -overlay o.json -tags x -vet=off -parallel=1 -count=3 -v=true p1 p2", true},
		{nil, []string{"-parallel", "4", "-args", "-count=9"}, "test -overlay o.json -tags x -vet=off -count=1 p1 p2 -parallel 4 -args -count=9", false},
		{[]string{"-test.parallel=2"}, []string{"-args", "-parallel=9"}, "test -overlay o.json -tags x -vet=off -count=1 -test.parallel=2 p1 p2 -args -parallel=9", false},
	} {
		got, parallel := goTestArgs([]string{"-overlay", "o.json", "-tags", "x"}, tc.pass, []string{"p1", "p2"}, tc.after)
		if strings.Join(got, " ") != tc.want || parallel != tc.parallel {
			t.Errorf("%q %q: %q (parallel %v), want %q (%v)", tc.pass, tc.after, got, parallel, tc.want, tc.parallel)
		}
	}
}

// TestParseTest: test's own flags, the go test flags it passes on, and
// misuse found before any work.
func TestParseTest(t *testing.T) {
	c, err := parseTest(io.Discard, []string{"-getters", "Stop", "-race", "-labels", "rewrite", "-run", "TestA", "-v", "./a", "./b", "--", "-benchtime=2x", "-args", "-size", "8"})
	if err != nil {
		t.Fatal(err)
	}
	if c.opt.Match == nil || c.opt.Match.String() != "Stop" || !c.rewrite || strings.Join(c.opt.Patterns, " ") != "./a ./b" ||
		strings.Join(c.pass, " ") != "-run=TestA -v=true" || strings.Join(c.after, " ") != "-benchtime=2x -args -size 8" ||
		!strings.Contains(strings.Join(c.opt.BuildFlags, " "), "-race") {
		t.Errorf("config %+v", c)
	}
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old.suncat"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{
		{"-cover"},
		{".", "--", "-coverprofile=c.out"},
		{"-labels", "other"},
		{"-skip-getters", "("},
		{"-traces", full},
	} {
		var u usageError
		if _, err := parseTest(io.Discard, bad); !errors.As(err, &u) {
			t.Errorf("%q: error %v, want misuse", bad, err)
		}
	}
}

// TestVetStages: vet's arguments for each -vet mode, its JSON read per
// target (an external test package's problems are its package's), and
// one package's report as go test prints it.
func TestVetStages(t *testing.T) {
	for mode, want := range map[string]string{
		"":             "vet -tags x -" + strings.Join(vetChecks, " -") + " -json p",
		"all":          "vet -tags x -json p",
		"printf, bool": "vet -tags x -printf -bool -json p",
	} {
		if got := strings.Join(vetArgs([]string{"-tags", "x"}, mode, []string{"p"}), " "); got != want {
			t.Errorf("-vet=%q: %s, want %s", mode, got, want)
		}
	}
	stream := `{"ex/p": {"printf": [{"posn": "/w/p/a.go:3:2", "message": "bad verb"}]}}
{"ex/p_test [ex/p.test]": {"tests": [{"posn": "/w/p/a_test.go:9:1", "message": "malformed name"}]}}
{"ex/q": {}}`
	found := decodeVet(strings.NewReader(stream), []string{"ex/p", "ex/q"})
	if len(found) != 1 || len(found["ex/p"]) != 2 {
		t.Fatalf("found %+v", found)
	}
	if got := decodeVet(strings.NewReader("# not json"), []string{"ex/p"}); got != nil {
		t.Errorf("not vet's JSON: %+v", got)
	}
	got := strings.Join(vetBlock("/w", "ex/p", found["ex/p"]), "")
	want := "# ex/p\n# [ex/p]\np/a.go:3:2: bad verb\np/a_test.go:9:1: malformed name\n"
	if got != want {
		t.Errorf("block %q, want %q", got, want)
	}
}
