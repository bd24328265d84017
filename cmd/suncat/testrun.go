package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// without returns the targets not in failed, in order.
func without(targets []string, failed map[string]bool) []string {
	if len(failed) == 0 {
		return targets
	}
	var rest []string
	for _, t := range targets {
		if !failed[t] {
			rest = append(rest, t)
		}
	}
	return rest
}

// goTestArgs assembles go test's arguments: build (the overlay's and the
// build flags), vet off (vetFirst vetted your own files), -count=1 and
// -parallel=1 unless pass sets them, then pass, the targets and after.
// parallel reports that -parallel=1 was added.
func goTestArgs(build, pass, targets, after []string) (args []string, parallel bool) {
	given := append(append([]string(nil), pass...), beforeArgs(after)...)
	has := func(name string) bool { _, ok := flagValue(given, name); return ok }
	args = append(append([]string{"test"}, build...), "-vet=off")
	if !has("count") {
		args = append(args, "-count=1")
	}
	if !has("parallel") {
		args, parallel = append(args, "-parallel=1"), true
	}
	args = append(args, pass...)
	args = append(args, targets...)
	return append(args, after...), parallel
}

// runGoTest runs go with args in dir, the terminal passed through and
// signals forwarded.
func runGoTest(ctx context.Context, dir string, env, args []string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = env
	if _, set := os.LookupEnv(tracefmt.ControlEnv); !set {
		// The control channel's goroutine waits in a system call, which
		// would hide a deadlocked test from the runtime's detector.
		cmd.Env = append(cmd.Env, tracefmt.ControlEnv+"=off")
	}
	return runForwarding(cmd, true)
}

// testTargets returns the packages to give go test: the import paths the
// analysis found for the patterns, since a pattern such as ./... would
// also match the runtime's packages, which exist only in the overlay
// (and cannot be vetted there). Patterns naming .go files stay as they
// are.
func testTargets(patterns, roots []string) []string {
	if len(roots) == 0 {
		return patterns
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".go") {
			return patterns
		}
	}
	return roots
}
