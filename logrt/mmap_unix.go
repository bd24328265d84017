//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"os"
	"syscall"
)

// mappedChunks says that chunks are mapped, and committing a record
// takes no system call: the Ps' shards can be written pinned (pinned.go).
const mappedChunks = true

// protectTrace makes the trace read-only (0400) once it is created and
// open for writing: the writer's descriptor and mappings keep working,
// but no other process of a user other than root can open it for writing
// or truncate it. A shared mapping of a file that shrinks faults at the
// next store (SIGBUS), which would kill the program: `: > trace`, or a
// log rotation's copytruncate, now fails with "permission denied"
// instead. Where modes cannot be changed (some file systems), the trace
// is left as it was.
//
// It also holds a shared lock (flock) on the trace for as long as the
// process lives, however it ends, so that suncat clean can tell a trace
// still being written (logrt/host.TraceInUse) and leave it alone.
func protectTrace(f *os.File) {
	f.Chmod(0o400)
	syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
}

// mapChunk maps chunk i of f (which the writer has grown to hold it)
// shared, so that what is written to it reaches the file even if the
// process is killed.
func mapChunk(f *os.File, i int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), int64(i)*chunkSize, chunkSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

// unmapChunk unmaps a chunk the writer is done with.
func unmapChunk(b []byte) { syscall.Munmap(b) }

// writeThrough is not needed with a shared mapping.
func writeThrough(chunk []byte, index, off, n int) {}

// mapHeader maps the file's header, which the writer updates in place
// (countChunk).
func mapHeader(f *os.File) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, headerSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}
