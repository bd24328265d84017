package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/internal/thirdparty"
)

// suncatCommand is the command the txtar scripts run as "suncat": the
// test binary re-executes itself as suncat.
var suncatCommand = map[string]func(){
	"suncat": func() { os.Exit(exitCode(run(os.Stdout, os.Stderr, os.Args[1:]), os.Stderr)) },
}

// TestMain runs the tests under testtmp, in a temporary directory of
// their own that is removed however they end (the suncat binary that
// suncatBinary builds, the copy of the test binary that testscript puts
// in $PATH, and the default trace directory of the commands that tests
// run without one go with it), or runs suncat for a script.
func TestMain(m *testing.M) {
	if _, ok := suncatCommand[strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")]; ok {
		testscript.Main(m, suncatCommand) // runs the command and exits
	}
	testtmp.Main(scriptsMain{m})
}

// scriptsMain runs the tests through testscript.Main, which sets up the
// suncat command in $PATH for the scripts.
type scriptsMain struct{ m *testing.M }

func (s scriptsMain) Run() int {
	testscript.Main(s.m, suncatCommand) // exits
	return 1
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
			// A short temporary directory of the script's own, its TMPDIR:
			// the control sockets of the instrumented programs it runs go
			// under it (a TMPDIR as long as $WORK/.tmp is too long for a
			// socket path, and the sockets would go to the shared
			// /tmp/suncat-ctl-<uid>, where scripts running at the same
			// time see each other's programs, and stay there: a program
			// cannot remove its socket as it exits). It is under testtmp's
			// directory when that is short enough, and removed with the
			// script.
			base := os.TempDir()
			if len(base) > 40 {
				base = "/tmp"
			}
			short, err := os.MkdirTemp(base, "sc")
			if err != nil { // no /tmp: the scripts that need it skip on such systems
				short = filepath.Join(env.WorkDir, "tmp")
				if err := os.Mkdir(short, 0o700); err != nil {
					return err
				}
			}
			env.Defer(func() { os.RemoveAll(short) })
			env.Setenv("SHORTTMP", short)
			env.Setenv("TMPDIR", short)
			// The default trace directory is suncat-traces-$UID.
			env.Setenv("UID", strconv.Itoa(os.Getuid()))
			for _, k := range []string{"HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOFLAGS", "GONOSUMDB", "GOSUMDB", "PATH"} {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			// Scripts match the module cache's files by $GOMODCACHE,
			// wherever it is.
			// Both are named, so that a script that unsets HOME (as
			// env -i does) still finds them.
			goEnvOnce.Do(func() {
				out, _ := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output()
				goEnv = strings.Split(strings.TrimSpace(string(out)), "\n")
			})
			for i, k := range []string{"GOMODCACHE", "GOCACHE"} {
				if env.Getenv(k) == "" && i < len(goEnv) {
					env.Setenv(k, goEnv[i])
				}
			}
			return nil
		},
	})
}

var (
	goEnvOnce sync.Once
	goEnv     []string // go env GOMODCACHE GOCACHE
)
