package suncat

import "embed"

// Runtime holds the sources of the runtime (logrt/*.go) and of the format
// definitions it imports (logrt/tracefmt/*.go), by their slash-separated
// paths in this module, so that suncat can compile the runtime into
// instrumented programs wherever suncat is installed. An embed pattern
// cannot leave test files out; instrument.RuntimeFiles skips them.
//
//go:embed logrt/*.go logrt/tracefmt/*.go
var Runtime embed.FS

// TestHook is logrt/testhook/testhook.go, which 'suncat test' compiles
// into instrumented test binaries (as <module>/suncatrt/testhook).
//
//go:embed logrt/testhook/testhook.go
var TestHook []byte
