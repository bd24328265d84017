//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tracefmt

import (
	"fmt"
	"os"
)

// CheckPrivateDir returns an error unless dir is a directory. Where
// there are no unix owners and modes, the temporary directory is the
// user's own.
func CheckPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("refusing %s: not a directory", dir)
	}
	return nil
}
