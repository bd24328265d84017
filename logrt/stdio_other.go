//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package logrt

import "os"

// fileAboveStdio returns f: where there are no unix descriptors to move,
// there is nothing to do.
func fileAboveStdio(f *os.File) (*os.File, error) { return f, nil }
