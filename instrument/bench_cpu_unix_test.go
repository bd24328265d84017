//go:build unix

package instrument

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time used so far by this process and its
// waited-for children (the go commands a build runs): on a shared, loaded
// machine it measures the work a build does better than the wall clock.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}
