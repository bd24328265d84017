//go:build !linux

package logrt

import "os"

// reserveSpace writes zeros over bytes [off, off+n) of f, so that the
// file system allocates them before they are mapped: a write to a mapped
// page the disk cannot hold would kill the program with SIGBUS. (On
// copy-on-write file systems a later write may still need new blocks.)
func reserveSpace(f *os.File, off, n int64) error { return writeZeros(f, off, n) }
