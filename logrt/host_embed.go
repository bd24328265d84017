package logrt

import "embed"

// Sources holds logrt's own source files, so that suncat can compile the
// runtime into instrumented programs wherever suncat is installed. Only
// the non-test files whose names do not start with host_ are copied.
//
//go:embed *.go
var Sources embed.FS
