//go:build unix

package host

import "syscall"

// processGone reports whether no process has this pid.
func processGone(pid int) bool {
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
