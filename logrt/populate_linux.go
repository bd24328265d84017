package logrt

import "syscall"

// populate asks Linux (5.14 and later) to fault in the pages of a newly
// mapped chunk for writing in one call, rather than one page fault per
// page as records reach them; older kernels refuse, and the pages are
// faulted in one by one as before.
func populate(b []byte) {
	const madvPopulateWrite = 23
	syscall.Madvise(b, madvPopulateWrite)
}
