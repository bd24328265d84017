package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// testResults reads a go test -json stream and returns the outcome of every
// package and test: "pkg" or "pkg TestName/sub" -> pass, fail or skip.
// Lines that are not JSON events (build output in text) are ignored.
func testResults(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var ev struct{ Action, Package, Test string }
		if err := json.Unmarshal(line, &ev); err != nil {
			return nil, fmt.Errorf("%v: %s", err, line)
		}
		switch ev.Action {
		case "pass", "fail", "skip":
		default:
			continue
		}
		key := ev.Package
		if ev.Test != "" {
			key += " " + ev.Test
		}
		out[key] = ev.Action
	}
	return out, sc.Err()
}

// diffResults describes how two outcome maps differ ("" when they agree).
func diffResults(want, got map[string]string) string {
	var diffs []string
	for k, w := range want {
		if g := got[k]; g != w {
			diffs = append(diffs, fmt.Sprintf("%s: go test %s, suncat test %s", k, w, orNone(g)))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: go test none, suncat test %s", k, g))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// scriptCmds are the testscript commands of the suncat test scripts.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// sametests A B: the go test -json outputs in files A and B give every
	// package and test the same outcome, and at least one test ran.
	"sametests": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: sametests go.json suncat.json")
		}
		want, err := testResults(strings.NewReader(ts.ReadFile(args[0])))
		ts.Check(err)
		got, err := testResults(strings.NewReader(ts.ReadFile(args[1])))
		ts.Check(err)
		d := diffResults(want, got)
		if neg {
			if d == "" {
				ts.Fatalf("outcomes agree")
			}
			return
		}
		if d != "" {
			ts.Fatalf("outcomes differ:\n%s", d)
		}
		if len(want) < 2 {
			ts.Fatalf("no test ran (%d outcomes)", len(want))
		}
	},
	// status N cmd args...: cmd exits with status N.
	"status": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 2 {
			ts.Fatalf("usage: status N cmd [args...]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		err = ts.Exec(args[1], args[2:]...)
		got := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			got = exit.ExitCode()
		} else if err != nil {
			ts.Fatalf("%s: %v", args[1], err)
		}
		if (got == want) == neg {
			ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
		}
	},
}
