package testtmp

import (
	"os"
	"testing"
)

// CheckMode fails t unless the permission bits of path (not followed if
// it is a link) are want: the private folders and files that the tests of
// the runtime and of the build cache check.
func CheckMode(t testing.TB, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != want {
		t.Errorf("%s: mode %04o, want %04o", path, fi.Mode().Perm(), want)
	}
}
