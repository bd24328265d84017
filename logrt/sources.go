package logrt

import "embed"

// Sources holds the runtime's source files and those of the format
// definitions it imports (tracefmt/), so that suncat can compile the
// runtime into instrumented programs wherever suncat is installed.
// instrument copies the non-test files, all but this one (which only
// suncat needs).
//
//go:embed *.go tracefmt/*.go
var Sources embed.FS
