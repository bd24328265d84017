package tracefmt

import (
	"fmt"
	"os"
	"path/filepath"
)

// The names and folders that the runtime (logrt, in instrumented
// programs) and suncat (which starts those programs, finds their traces
// and reaches their control sockets) must agree on. They are here, not
// in logrt, so that suncat does not import the runtime and run its start-up.

// Environment variables the runtime reads.
const (
	// TraceEnv says where traces go: an absolute path of a directory
	// (each process writes its own file in it) or of a file.
	TraceEnv = "SUNCAT_TRACE"
	// ControlEnv turns the control channel off ("off").
	ControlEnv = "SUNCAT_CONTROL"
	// DelayEnv slows chosen getters down at run time (logrt's delay.go).
	DelayEnv = "SUNCAT_DELAY"
	// DelayMatchEnv holds the LIKE pattern that limits the delays of
	// SUNCAT_DELAY's key match (logrt's delaymatch.go, Like).
	DelayMatchEnv = "SUNCAT_DELAY_MATCH"
)

// RuntimeDir is the directory, relative to the main module's root, where
// instrument puts the runtime (overlays only; nothing is written there):
// the runtime's package is <module>/suncatrt, its functions in stacks
// suncatrt.String and the like.
const RuntimeDir = "suncatrt"

// DefaultDir is where traces go when SUNCAT_TRACE is not set: the
// directory suncat-traces-<uid> in the temporary directory, this user's
// own (MakeDefaultDir).
func DefaultDir() string {
	name := "suncat-traces"
	if uid := os.Getuid(); uid >= 0 {
		name = fmt.Sprintf("suncat-traces-%d", uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// MakeDefaultDir makes DefaultDir, open to this user only (0700), if it
// is not there, and returns it. It refuses a directory that is not this
// user's own and closed to others, or a symbolic link (CheckPrivateDir):
// traces hold the values the program's getters returned, and a folder
// another user made first would capture them.
func MakeDefaultDir() (string, error) {
	dir := DefaultDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := CheckPrivateDir(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// ControlDir is the directory of the control sockets of the live processes
// of this user: $TMPDIR/suncat-ctl-<uid>, or /tmp/suncat-ctl-<uid> if that
// would make socket paths too long for the system.
func ControlDir() string {
	name := "suncat-ctl"
	if uid := os.Getuid(); uid >= 0 {
		name = fmt.Sprintf("suncat-ctl-%d", uid)
	}
	dir := filepath.Join(os.TempDir(), name)
	// A socket path must fit sockaddr_un (104 bytes on darwin, 108 on
	// linux), with room for "/<pid>.sock".
	if len(dir) > 80 {
		dir = filepath.Join("/tmp", name)
	}
	return dir
}
