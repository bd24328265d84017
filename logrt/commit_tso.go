//go:build (amd64 || 386) && gc && !race

package logrt

import "unsafe"

// storeCommit publishes a record by storing its commit word at p, after
// the record's bytes. On amd64 and 386 every store is a release store
// (the processor makes stores visible in program order, and the gc
// compiler keeps stores in program order), so a plain store is enough.
// The atomic store compiles to XCHG, a full fence, which also waited for
// the record's fresh cache line to arrive: 27% of the samples of event's
// own code in a perf profile of testdata/recbench (BENCH.md).
func storeCommit(p unsafe.Pointer, word uint32) { *(*uint32)(p) = word }
