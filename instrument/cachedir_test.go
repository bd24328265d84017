package instrument

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
)

// TestCacheDirPrivate checks that with no user cache directory (HOME and
// XDG_CACHE_HOME unset) the build cache is suncat-cache-<uid> under the
// temporary directory, made 0700 with 0700 directories in it, and that
// one another user could write to is refused: open to others, a
// symbolic link, or (as root) another user's. One an older suncat made
// 0755 under the user's cache directory is made 0700.
func TestCacheDirPrivate(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	root := filepath.Join(tmp, "suncat-cache-"+strconv.Itoa(os.Getuid()))
	if got := CacheDir(); got != root {
		t.Fatalf("CacheDir() = %s, want %s", got, root)
	}
	bin, err := MakeCacheDir("bin", "0123")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{root, filepath.Join(root, "bin"), bin} {
		testtmp.CheckMode(t, d, 0o700)
	}

	refused := func(prepare func(), want string) {
		t.Helper()
		os.RemoveAll(root)
		prepare()
		_, err := MakeCacheDir("bin")
		if err == nil || !strings.HasPrefix(err.Error(), "build cache: refusing "+root+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("want an error refusing %s (%s), got %v", root, want, err)
		}
		if _, err := os.Lstat(filepath.Join(root, "bin")); err == nil {
			t.Errorf("%s: bin made in a refused cache", want)
		}
	}
	refused(func() { os.Mkdir(root, 0o777); os.Chmod(root, 0o777) }, "its mode 0777 opens it to other users")
	refused(func() { os.Mkdir(root, 0o770); os.Chmod(root, 0o770) }, "its mode 0770 opens it to other users")
	target := filepath.Join(tmp, "elsewhere")
	os.Mkdir(target, 0o700)
	refused(func() { os.Symlink(target, root) }, "it is a symbolic link")
	if os.Getuid() == 0 {
		refused(func() { os.Mkdir(root, 0o700); os.Chown(root, 54321, 54321) }, "it belongs to uid 54321")
	}

	// An older suncat's cache, 0755 under the user's cache directory.
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	t.Setenv("HOME", tmp)
	old := filepath.Join(tmp, "cache", "suncat")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(old, 0o755)
	if _, err := MakeCacheDir("work"); err != nil {
		t.Fatal(err)
	}
	testtmp.CheckMode(t, old, 0o700)
}
