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
