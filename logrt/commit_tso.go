//go:build (amd64 || 386) && gc && !race

package logrt

import "unsafe"

// storeCommit publishes a record by storing its commit word at p, after
// the record's bytes. On amd64 and 386 every store is a release store
// (the processor makes stores visible in program order, and the gc
// compiler keeps stores in program order), so a plain store is enough; the atomic
// store compiles to XCHG, a full fence that also waited for the record's
// fresh cache line to be fetched, about a quarter of an event's own
// encoding time in testdata/recbench (BENCH.md).
func storeCommit(p unsafe.Pointer, word uint32) { *(*uint32)(p) = word }
