package logrt

import (
	"os"
	"syscall"
)

// populate asks Linux (5.14 and later) to fault in the pages of a newly
// mapped chunk for writing in one call, rather than one page fault per
// page as records reach them; older kernels refuse, and the pages are
// faulted in one by one as before.
func populate(b []byte) {
	const madvPopulateWrite = 23
	syscall.Madvise(b, madvPopulateWrite)
}

// prefault readies chunk i of f, just mapped at b and not yet written, for
// the records to come: it writes zeros over the chunk through the file,
// then populates the mapping. A reserved page that was never written is
// read in by the file system when the mapping faults it (zeros, but
// through the read path: on ext4, 3 to 8 µs a page here), where a page
// the write path made is only mapped: 1.3 µs a page in all
// (BenchmarkTraceMiB). The mapper does this off the recording path;
// a failed write leaves the pages to be faulted in as before.
func prefault(f *os.File, i int, b []byte) {
	writeZeros(f, int64(i)*chunkSize, int64(len(b)))
	populate(b)
}
