package testtmp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// childEnv is set, to the directory, in the child's environment.
const childEnv = "SUNCAT_TESTTMP"

// Prefix starts the names of the directories that Main makes.
const Prefix = "suncat-test-"

// Main runs the tests (m.Run) in a child process with a temporary
// directory of its own, then exits. In the child it runs m.Run.
func Main(m interface{ Run() int }) {
	os.Exit(Run(m))
}

// Run is Main without the exit: it returns the exit status.
func Run(m interface{ Run() int }) int {
	if os.Getenv(childEnv) != "" {
		return m.Run()
	}
	sweep()
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", Prefix, os.Getpid()))
	if err != nil {
		fmt.Fprintf(os.Stderr, "testtmp: %v; running the tests in the shared temporary directory\n", err)
		return m.Run()
	}
	defer removeAll(dir)
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), childEnv+"="+dir, "TMPDIR="+dir, "TMP="+dir, "TEMP="+dir)
	dieWithParent(cmd)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "testtmp: %v\n", err)
		return 1
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default: // killed by a signal
		fmt.Fprintf(os.Stderr, "testtmp: tests: %v\n", err)
		return 1
	}
}

// sweep removes the directories of parents that no longer run (killed
// outright, so they could not remove their own).
func sweep() {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), Prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		if n, err := strconv.Atoi(pid); err == nil && n != os.Getpid() && !alive(n) {
			removeAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
}

// removeAll removes dir, making directories inside it writable first if
// it must (copies of module cache directories are read-only).
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintf(os.Stderr, "testtmp: %v\n", err)
	}
}
