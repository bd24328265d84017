package main

import (
	"io"
	"os/exec"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// goHelpFlag matches a flag's first line in the go command's help: a tab,
// the flag, and the name of its value if it takes one ("\t-count n").
var goHelpFlag = regexp.MustCompile(`^\t-([a-z][a-z0-9.]*)(?: (\S.*))?$`)

// goHelpFlags lists the flags in the output of go help topic, with
// whether each takes a value.
func goHelpFlags(t *testing.T, topic string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "help", topic).Output()
	if err != nil {
		t.Fatalf("go help %s: %v", topic, err)
	}
	flags := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := goHelpFlag.FindStringSubmatch(line); m != nil {
			flags[m[1]] = m[2] != ""
		}
	}
	if len(flags) < 4 {
		t.Fatalf("go help %s: found only %d flags in\n%s", topic, len(flags), out)
	}
	return flags
}

// TestGoTestFlagsComplete checks the go test flag table (goTestFlags)
// against the go command's own lists, so that a flag a new go adds is not
// refused silently: every flag in go help testflag and go help test is
// passed on by suncat test as given, with its value when go's takes one
// (the coverage flags are refused on purpose, -args ends suncat's flags),
// and the table holds no flag the go command does not know.
func TestGoTestFlagsComplete(t *testing.T) {
	known := map[string]bool{}
	for _, topic := range []string{"testflag", "test"} {
		for name, takes := range goHelpFlags(t, topic) {
			known[name] = true
			var args, want []string
			switch {
			case name == "args":
				continue // splitTestArgs
			case takes:
				args, want = []string{"-" + name, "v"}, []string{"-" + name + "=v"}
			default:
				args, want = []string{"-" + name}, []string{"-" + name + "=true"}
			}
			c, err := parseTest(io.Discard, args)
			if strings.HasPrefix(name, "cover") {
				if err == nil || !strings.Contains(err.Error(), "coverage") {
					t.Errorf("suncat test -%s (go help %s): %v; want it refused as a coverage flag", name, topic, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("suncat test -%s (go help %s): %v; add it to goTestFlags", name, topic, err)
				continue
			}
			if !reflect.DeepEqual(c.pass, want) || len(c.opt.Patterns) != 0 {
				t.Errorf("suncat test %s (go help %s): passes %q and takes packages %q; want %q (does it take a value? goTestFlags says %v)",
					strings.Join(args, " "), topic, c.pass, c.opt.Patterns, want, goTestFlags[name])
			}
		}
	}
	// go test also takes the build flags (-a, -p, -x in the table).
	for name := range goHelpFlags(t, "build") {
		known[name] = true
	}
	for name := range goTestFlags {
		if !known[name] {
			t.Errorf("goTestFlags has -%s, which go help testflag, test and build do not list", name)
		}
	}
}
