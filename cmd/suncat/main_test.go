package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/suncat-go/suncat/internal/thirdparty"
)

// TestMain lets the txtar scripts run "suncat" as a real command: the test
// binary re-executes itself as suncat.
func TestMain(m *testing.M) {
	testscript.Main(cleanupAfter{m}, map[string]func(){
		"suncat": func() { os.Exit(exitCode(run(os.Stdout, os.Stderr, os.Args[1:]), os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. Each script
// builds what it needs in its own work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                scriptCmds,
		// [suites]: the third-party tests are on (SUNCAT_SUITES=1), for
		// scripts that need modules outside suncat's go.mod.
		Condition: func(cond string) (bool, error) {
			if cond == "suites" {
				return thirdparty.Enabled(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// Scripts that build Go code need the real module cache and
			// proxy settings of the machine.
			root, err := filepath.Abs("../..")
			if err != nil {
				return err
			}
			env.Setenv("SUNCAT_ROOT", root)
			// A short temporary directory of the script's own, for scripts
			// that run instrumented programs: their control sockets go
			// under it (a TMPDIR as long as $WORK/tmp is too long for a
			// socket path, and the sockets would go to the shared
			// /tmp/suncat-ctl-<uid>, where scripts running at the same
			// time see each other's programs).
			short, err := os.MkdirTemp("/tmp", "sc")
			if err != nil { // no /tmp: the scripts that need it skip on such systems
				short = filepath.Join(env.WorkDir, "tmp")
				if err := os.Mkdir(short, 0o700); err != nil {
					return err
				}
			}
			env.Defer(func() { os.RemoveAll(short) })
			env.Setenv("SHORTTMP", short)
			// The default trace directory is suncat-traces-$UID.
			env.Setenv("UID", strconv.Itoa(os.Getuid()))
			for _, k := range []string{"HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOFLAGS", "GONOSUMDB", "GOSUMDB", "PATH"} {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			return nil
		},
	})
}

// cleanupAfter runs the tests with TMPDIR set to a directory of their
// own, which it removes after them: the suncat binary that suncatBinary
// builds, and the default trace directory of the commands that tests run
// without one, go with it, so nothing of a test run is left behind.
type cleanupAfter struct{ m *testing.M }

func (c cleanupAfter) Run() int {
	tmp, err := os.MkdirTemp("", "suncat-test-")
	if err != nil {
		return c.m.Run()
	}
	defer os.RemoveAll(tmp)
	os.Setenv("TMPDIR", tmp)
	return c.m.Run()
}
