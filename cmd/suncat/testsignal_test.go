//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTestInterrupt sends SIGINT to suncat test (not from a terminal) while
// a test waits for it: the signal reaches the test binary, as a ^C at the
// terminal would, go test reports the failure, and suncat still says
// where the trace is and exits with go test's status.
func TestTestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds suncat and a test binary")
	}
	bin := suncatBinary(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/sl\n\ngo 1.22\n",
		"sl.go":  "package sl\n\ntype S struct{ s string }\n\nfunc (x S) Get() string { return x.s }\n",
		"sl_test.go": "package sl\n\nimport (\"fmt\"; \"os\"; \"os/signal\"; \"testing\")\n\n" +
			"func TestWait(t *testing.T) {\n\tS{\"a\"}.Get()\n\tc := make(chan os.Signal, 1)\n\tsignal.Notify(c, os.Interrupt)\n" +
			"\tfmt.Println(\"ready\")\n\t<-c\n\tt.Fatal(\"interrupted\")\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	traces := filepath.Join(t.TempDir(), "tr")
	cmd := exec.Command(bin, "test", "-traces", traces, "-v", "-timeout", "60s", ".")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			stdout.WriteString(sc.Text() + "\n")
			if sc.Text() == "ready" && !sent {
				sent = true
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("the test never got ready\n%s", stderr.String())
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the test never got ready\n%s", stderr.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("suncat test did not end after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit status %d (%v), want go test's 1", code, err)
	}
	if !strings.Contains(stdout.String(), "interrupted") {
		t.Errorf("the test binary did not see the interrupt:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "1 trace(s), one per test binary, in "+traces) {
		t.Errorf("no trace path after the interrupt:\n%s", stderr.String())
	}
}
