// Package thirdparty decides whether the tests that need modules outside
// suncat's own go.mod run. They download those modules from the module
// proxy and test or instrument them (the third-party suites of suncat
// test, protobuf under -deps), which takes minutes and the network, so
// plain go test ./... leaves them out:
//
//	SUNCAT_SUITES=1 go test -timeout 15m ./...
//
// runs them too (.ci/run does). Set, they must run: a module that cannot
// be downloaded fails the test rather than skipping it.
package thirdparty

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the third-party tests on:
// any value but empty or "0" ("1" or "required").
const Env = "SUNCAT_SUITES"

// Enabled reports whether Env asks for the third-party tests.
func Enabled() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Require skips tb unless the third-party tests are enabled; needs says
// what the test downloads.
func Require(tb testing.TB, needs string) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("needs %s from the module proxy; %s=1 runs it", needs, Env)
	}
}
