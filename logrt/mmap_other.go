//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package logrt

import "os"

// On systems without the shared mapping, chunks live in memory and every
// committed record is written to the file at once: slower, with the same
// guarantee for a process that dies.
func mapChunk(f *os.File, i int) ([]byte, error) {
	return make([]byte, chunkSize), nil
}

func unmapChunk(b []byte) {}

// protectTrace leaves the trace as it is: without mappings, a trace that
// shrinks cannot fault a store.
func protectTrace(f *os.File) {}

// mappedChunks says that every commit is a system call, which a
// goroutine pinned to its P must not make: there are no P's shards.
const mappedChunks = false

func writeThrough(chunk []byte, index, off, n int) {
	if _, err := w.f.WriteAt(chunk[off:off+n], int64(index)*chunkSize+int64(off)); err != nil {
		w.fail(err)
	}
}

// syncChunk has nothing to do: records were written to the file already.
func syncChunk(b []byte) error { return nil }

// mapHeader has nothing to map: the chunk count is written to the file.
func mapHeader(f *os.File) ([]byte, error) { return nil, nil }
