//go:build linux || darwin || freebsd || openbsd || dragonfly

package logrt

import (
	"syscall"
	"unsafe"
)

// syncChunk asks the system to write the mapped chunk to disk (Flush).
func syncChunk(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, _, e := syscall.Syscall(syscall.SYS_MSYNC, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), syscall.MS_SYNC)
	if e != 0 {
		return e
	}
	return nil
}
