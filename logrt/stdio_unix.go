//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"os"
	"syscall"
)

// aboveStdio returns a descriptor for what fd refers to that is not
// standard input, output or error (0 to 2), closing fd if it was one,
// and sets close-on-exec on it. A program that closed its standard
// output (a daemon) gets those numbers back for the next descriptors it
// opens, and the os package takes 1 and 2 for standard output and error
// wherever they come from: a write to a hung-up peer on them raises
// SIGPIPE, which kills the program, and the program's own writes to 1
// would land in the trace or a control client. The caller holds
// syscall.ForkLock for reading, so that no child inherits the
// descriptors made here.
func aboveStdio(fd int) (int, error) {
	var low []int
	for fd < 3 {
		low = append(low, fd)
		nfd, err := syscall.Dup(fd)
		if err != nil {
			for _, l := range low {
				syscall.Close(l)
			}
			return -1, err
		}
		fd = nfd
	}
	for _, l := range low {
		syscall.Close(l)
	}
	syscall.CloseOnExec(fd)
	return fd, nil
}

// fileAboveStdio returns f, or, if its descriptor is one of 0 to 2, a
// file of the same name on another descriptor (aboveStdio); f is then
// closed.
func fileAboveStdio(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	rc.Control(func(d uintptr) { fd = int(d) })
	if fd >= 3 {
		return f, nil
	}
	syscall.ForkLock.RLock()
	nfd, err := syscall.Dup(fd)
	if err == nil {
		nfd, err = aboveStdio(nfd)
	}
	syscall.ForkLock.RUnlock()
	f.Close()
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}
