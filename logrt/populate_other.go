//go:build !linux

package logrt

import "os"

// populate has nothing to do where pages are not populated ahead.
func populate(b []byte) {}

// prefault has nothing to do where pages are not populated ahead.
func prefault(f *os.File, i int, b []byte) {}
