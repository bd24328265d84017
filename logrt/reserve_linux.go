package logrt

import (
	"os"
	"syscall"
)

// reserveSpace makes the file system allocate bytes [off, off+n) of f,
// so that writing them through a mapping never needs a new block: a write
// to a page the disk cannot hold would kill the program with SIGBUS.
// File systems without fallocate get zeros written instead.
func reserveSpace(f *os.File, off, n int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, off, n)
		switch err {
		case nil:
			return nil
		case syscall.EINTR:
			continue
		case syscall.EOPNOTSUPP, syscall.ENOSYS:
			return writeZeros(f, off, n)
		}
		return err
	}
}
