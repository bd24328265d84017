//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tracefmt

import (
	"fmt"
	"os"
	"syscall"
)

// CheckPrivateDir returns an error unless dir is a real directory (not a
// symbolic link) owned by this user and closed to others (no permission
// bits for group or others), so that nobody else can read what is in it,
// nor put something of theirs in its place.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("refusing %s: it is a symbolic link", dir)
	case !fi.IsDir():
		return fmt.Errorf("refusing %s: not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		uid := -1
		if ok {
			uid = int(st.Uid)
		}
		return fmt.Errorf("refusing %s: it belongs to uid %d, not to this user (uid %d)", dir, uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("refusing %s: its mode %04o opens it to other users (want 0700)", dir, perm)
	}
	return nil
}
