package testhook

import _ "embed"

// Source is testhook.go, which 'suncat test' compiles into instrumented
// test binaries (this file stays on the host).
//
//go:embed testhook.go
var Source []byte
