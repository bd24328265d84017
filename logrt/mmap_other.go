//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package logrt

import "os"

// On systems without the shared mapping, chunks live in memory and every
// committed record is written to the file at once: slower, with the same
// guarantee for a process that dies.
func mapChunk(f *os.File, i int, prev []byte) ([]byte, error) {
	if err := f.Truncate(int64(i+1) * chunkSize); err != nil {
		return nil, err
	}
	return make([]byte, chunkSize), nil
}

func writeThrough(w *writer, off, n int) {
	if _, err := w.f.WriteAt(w.chunk[off:off+n], int64(w.index)*chunkSize+int64(off)); err != nil {
		w.fail(err)
	}
}

// syncChunk has nothing to do: records were written to the file already.
func syncChunk(b []byte) error { return nil }
