//go:build !((amd64 || 386) && gc) || race

package logrt

import (
	"sync/atomic"
	"unsafe"
)

// storeCommit publishes a record by storing its commit word at p, after
// the record's bytes, with release ordering (commit_tso.go).
func storeCommit(p unsafe.Pointer, word uint32) { atomic.StoreUint32((*uint32)(p), word) }
