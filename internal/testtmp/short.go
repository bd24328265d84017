package testtmp

import (
	"os"
	"testing"
)

// ShortDir returns a new directory, removed when the test ends, whose
// path leaves room for unix socket paths under it: a test that sets
// TMPDIR to it gets a control folder of its own (logrt.ControlDir falls
// back to /tmp/suncat-ctl-<uid>, which every program of the user shares,
// where TMPDIR is long, as macOS's is). It is under the temporary
// directory if that is short enough, else under /tmp; where neither can
// be made, the test is skipped.
func ShortDir(t testing.TB) string {
	t.Helper()
	base := os.TempDir()
	if len(base) > 40 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "sc")
	if err != nil {
		t.Skipf("no short temporary directory for sockets: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
