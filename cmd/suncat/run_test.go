//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// runProg is the program the run tests start: it exits with the status
// given as argument, kills itself with a signal, or waits for SIGINT.
const runProg = `package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
)

func main() {
	switch os.Args[1] {
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case "wait":
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt)
		fmt.Println("ready")
		<-c
		fmt.Println("interrupted")
		os.Exit(7)
	}
	n, _ := strconv.Atoi(os.Args[1])
	os.Exit(n)
}
`

func buildRunProg(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(runProg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/prog\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "prog")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestRunExitStatus checks that suncat run exits with the program's
// status, and with 128+n when signal n ended it, like a shell.
func TestRunExitStatus(t *testing.T) {
	bin := buildRunProg(t)
	for _, tc := range []struct {
		arg  string
		want int
	}{
		{"0", 0},
		{"3", 3},
		{"kill", 128 + int(syscall.SIGKILL)},
	} {
		var stderr strings.Builder
		err := runInstrumented(bin, []string{tc.arg}, t.TempDir(), io.Discard, &stderr)
		if got := exitCode(err, io.Discard); got != tc.want {
			t.Errorf("%s: exit status %d, want %d (err %v)", tc.arg, got, tc.want, err)
		}
		if !strings.Contains(stderr.String(), "recorded no trace") {
			t.Errorf("%s: stderr does not say there is no trace:\n%s", tc.arg, stderr.String())
		}
	}
}

// TestRunRemovesEmptyTraceDir: a run that records nothing leaves no empty
// directory of its own under the default trace directory, but keeps a
// directory the user named.
func TestRunRemovesEmptyTraceDir(t *testing.T) {
	bin := buildRunProg(t)
	t.Setenv("TMPDIR", t.TempDir())
	var stderr strings.Builder
	if err := runInstrumented(bin, []string{"0"}, "", io.Discard, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	entries, err := os.ReadDir(tracefmt.DefaultDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("left in %s: %v\n%s", tracefmt.DefaultDir(), entries, stderr.String())
	}
	if strings.Contains(stderr.String(), "directory:") {
		t.Errorf("names a directory it removed:\n%s", stderr.String())
	}
	mine := filepath.Join(t.TempDir(), "mine")
	stderr.Reset()
	if err := runInstrumented(bin, []string{"0"}, mine, io.Discard, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the directory the user named is gone: %v", err)
	}
}

// TestRunForwardsSignals interrupts suncat while the program runs: the
// program gets the SIGINT, and its exit status comes back.
func TestRunForwardsSignals(t *testing.T) {
	bin := buildRunProg(t)
	// As when suncat is driven by a script or a supervisor, not typed at.
	defer func(f func() bool) { stdinIsTerminal = f }(stdinIsTerminal)
	stdinIsTerminal = func() bool { return false }
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- runInstrumented(bin, []string{"wait"}, t.TempDir(), w, io.Discard)
		w.Close()
	}()
	lines := bufio.NewScanner(r)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("program did not start: %q", lines.Text())
	}
	// suncat (this process) is interrupted; it must not die, but pass the
	// signal on.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() || lines.Text() != "interrupted" {
		t.Fatalf("program was not interrupted: %q", lines.Text())
	}
	go io.Copy(io.Discard, r)
	err := <-done
	var silent silentError
	if !errors.As(err, &silent) || exitCode(err, io.Discard) != 7 {
		t.Fatalf("run returned %v (exit %d), want the program's status 7", err, exitCode(err, io.Discard))
	}
}
