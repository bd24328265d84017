package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// vetChecks are the go vet checks that go test runs by default: those go
// help test lists, and slog (cmd/go's defaultVetFlags).
var vetChecks = []string{"atomic", "bool", "buildtags", "directive", "errorsas", "ifaceassert", "nilfunc", "printf", "slog", "stringintconv", "tests"}

// takeVetFlag removes go test's -vet flag from the flags for go test and
// returns its value ("" when not given).
func takeVetFlag(pass, after []string) (string, []string, []string) {
	mode := ""
	var p []string
	for _, f := range pass {
		if v, ok := strings.CutPrefix(f, "-vet="); ok {
			mode = v
			continue
		}
		p = append(p, f)
	}
	var a []string
	for i := 0; i < len(after); i++ {
		f := after[i]
		if f == "-args" || f == "--args" {
			a = append(a, after[i:]...) // the test binaries' own arguments
			break
		}
		name := strings.TrimLeft(f, "-")
		if v, ok := strings.CutPrefix(name, "vet="); ok && strings.HasPrefix(f, "-") {
			mode = v
			continue
		}
		if name == "vet" && strings.HasPrefix(f, "-") && i+1 < len(after) {
			mode = after[i+1]
			i++
			continue
		}
		a = append(a, f)
	}
	return mode, p, a
}

// vetFirst runs the vet checks of go test on your own files, before the
// instrumented go test (which runs with -vet=off: go vet cannot visit the
// runtime's packages, which exist only in the build's overlay, and the
// checks belong on your code, not on suncat's copy of it). It reports the
// problems as go test would and returns the packages that failed, whose
// tests then do not run, as under go test.
func vetFirst(ctx context.Context, dir string, env, buildFlags []string, mode string, targets []string, jsonOut bool, stdout, stderr io.Writer) (map[string]bool, error) {
	if mode == "off" || len(targets) == 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "go", vetArgs(buildFlags, mode, targets)...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil && out.Len() == 0 {
		// Not a report of vet problems (with -json, vet exits 0 for
		// those) but a pattern or build error: go test will say the
		// same, in its own words. When only some packages do not
		// build, the others' reports are still there.
		return nil, nil
	} else if err == nil && out.Len() == 0 {
		out = errOut // should a toolchain write vet's JSON there
	}
	found := decodeVet(&out, targets)
	if len(found) == 0 {
		return nil, nil
	}
	failed := map[string]bool{}
	var order []string
	blocks := map[string][]string{}
	for _, t := range targets {
		if ds := found[t]; len(ds) > 0 {
			failed[t] = true
			order = append(order, t)
			blocks[t] = vetBlock(dir, t, ds)
		}
	}
	if !jsonOut {
		for _, p := range order {
			fmt.Fprint(stderr, strings.Join(blocks[p], ""))
			fmt.Fprintf(stdout, "FAIL\t%s [build failed]\n", p)
		}
		return failed, nil
	}
	enc := json.NewEncoder(stdout)
	for _, p := range order {
		id := p + " [" + p + ".test]"
		for _, l := range blocks[p] {
			enc.Encode(map[string]string{"ImportPath": id, "Action": "build-output", "Output": l})
		}
		enc.Encode(map[string]string{"ImportPath": id, "Action": "build-fail"})
		now := time.Now()
		enc.Encode(testEvent{Time: now, Action: "start", Package: p})
		enc.Encode(testEvent{Time: now, Action: "output", Package: p, Output: "FAIL\t" + p + " [build failed]\n"})
		enc.Encode(testEvent{Time: now, Action: "fail", Package: p, Elapsed: new(float64), FailedBuild: id})
	}
	return failed, nil
}

// vetArgs are go vet's arguments for go test's -vet mode ("" or default:
// go test's checks; all: vet's own default; else the checks named).
func vetArgs(buildFlags []string, mode string, targets []string) []string {
	args := append([]string{"vet"}, buildFlags...)
	switch mode {
	case "", "default":
		for _, c := range vetChecks {
			args = append(args, "-"+c)
		}
	case "all":
	default:
		for _, c := range strings.Split(mode, ",") {
			if c = strings.TrimSpace(c); c != "" {
				args = append(args, "-"+c)
			}
		}
	}
	args = append(args, "-json")
	return append(args, targets...)
}

// A vetDiag is one problem go vet -json reports.
type vetDiag struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// decodeVet reads go vet -json's stream of objects (import path -> check
// -> diagnostics) into the problems of each target; an external test
// package's count as its package's. Output that is not vet's JSON gives
// nothing (go test will report it).
func decodeVet(r io.Reader, targets []string) map[string][]vetDiag {
	known := map[string]bool{}
	for _, t := range targets {
		known[t] = true
	}
	found := map[string][]vetDiag{}
	dec := json.NewDecoder(r)
	for {
		var report map[string]map[string]json.RawMessage
		if err := dec.Decode(&report); err == io.EOF {
			return found
		} else if err != nil {
			return nil
		}
		for id, checks := range report {
			pkg, _, _ := strings.Cut(id, " [")
			if !known[pkg] {
				pkg = strings.TrimSuffix(pkg, "_test")
			}
			for _, raw := range checks {
				var ds []vetDiag
				if json.Unmarshal(raw, &ds) == nil {
					found[pkg] = append(found[pkg], ds...)
				}
			}
		}
	}
}

// vetBlock is the report of a package's problems as go test prints it,
// positions relative to dir, in order.
func vetBlock(dir, pkg string, ds []vetDiag) []string {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Posn < ds[j].Posn })
	lines := []string{"# " + pkg + "\n", "# [" + pkg + "]\n"}
	for _, d := range ds {
		pos := d.Posn
		if rel, err := filepath.Rel(dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
			pos = rel
		}
		lines = append(lines, pos+": "+d.Message+"\n")
	}
	return lines
}

// testEvent is a go test -json event (the fields vetFirst writes).
type testEvent struct {
	Time        time.Time `json:",omitempty"`
	Action      string
	Package     string   `json:",omitempty"`
	Output      string   `json:",omitempty"`
	Elapsed     *float64 `json:",omitempty"`
	FailedBuild string   `json:",omitempty"`
}
