//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"os"
	"syscall"
)

// mapChunk grows f to hold chunk i and maps it shared, so that what is
// written to it reaches the file even if the process is killed. The
// previous chunk, if any, is unmapped.
func mapChunk(f *os.File, i int, prev []byte) ([]byte, error) {
	if err := f.Truncate(int64(i+1) * chunkSize); err != nil {
		return nil, err
	}
	b, err := syscall.Mmap(int(f.Fd()), int64(i)*chunkSize, chunkSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	if prev != nil {
		syscall.Munmap(prev)
	}
	return b, nil
}

// writeThrough is not needed with a shared mapping.
func writeThrough(w *writer, off, n int) {}
