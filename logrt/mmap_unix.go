//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"os"
	"syscall"
)

// mapChunk maps chunk i of f (which the writer has grown to hold it) shared, so that what is
// written to it reaches the file even if the process is killed. The
// previous chunk, if any, is unmapped.
func mapChunk(f *os.File, i int, prev []byte) ([]byte, error) {
	b, err := syscall.Mmap(int(f.Fd()), int64(i)*chunkSize, chunkSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	populate(b)
	if prev != nil {
		syscall.Munmap(prev)
	}
	return b, nil
}

// writeThrough is not needed with a shared mapping.
func writeThrough(s *shard, off, n int) {}
