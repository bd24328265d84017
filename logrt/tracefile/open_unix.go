//go:build unix

package tracefile

import (
	"os"
	"syscall"
)

// openNonblock opens path without blocking on a named pipe that took the
// place of the file after it was looked at.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
