//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package host

import (
	"os"
	"syscall"
)

// TraceInUse reports whether a process holds the trace at path open to
// write it (the runtime's shared lock on it, logrt's protectTrace): a
// program still recording, however its control channel is set.
func TraceInUse(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	fd := int(f.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == syscall.EWOULDBLOCK {
		return true
	}
	syscall.Flock(fd, syscall.LOCK_UN)
	return false
}
