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

	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/logrt/host"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestControlChannel starts a recording program, marks, pauses and
// resumes it from "another terminal" (the CLI in this process), kills it,
// and checks that the trace holds the control records in order.
func TestControlChannel(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "exitprog")
	if out, err := exec.Command("go", "build", "-o", bin, "../../logrt/internal/exitprog").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// A private control directory, so other programs do not interfere
	// (a short one: under a long TMPDIR the control folder is the one
	// all the user's programs share).
	t.Setenv("TMPDIR", testtmp.ShortDir(t))
	traces := filepath.Join(tmp, "traces") + "/"
	cmd := exec.Command(bin, "serve", "0")
	cmd.Env = append(os.Environ(), tracefmt.TraceEnv+"="+traces)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		if !strings.HasPrefix(line, "ready") {
			t.Fatalf("program said %q", line)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("program did not start")
	}
	var out, errb bytes.Buffer
	runWhenServed(t, &out, &errb, "mark", "first", "repetition")
	if !strings.HasPrefix(out.String(), `marked "first repetition" in exitprog`) {
		t.Errorf("mark printed %q", out.String())
	}
	for _, args := range [][]string{{"pause"}, {"resume"}, {"mark", "-pid", "999999999", "x"}} {
		out.Reset()
		err := run(&out, &errb, args)
		if args[0] == "mark" {
			if err == nil || !strings.Contains(err.Error(), "no running instrumented program matches") {
				t.Errorf("mark -pid of a missing process: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, m := range tr.Marks {
		kinds = append(kinds, m.Kind.String()+":"+m.Label)
	}
	if got, want := strings.Join(kinds, ","), "mark:first repetition,pause:,resume:"; got != want {
		t.Errorf("marks %s, want %s", got, want)
	}
	// The socket of the dead process is cleaned up by the next lookup.
	if ps, _ := host.LiveProcesses(); len(ps) != 0 {
		t.Errorf("live processes after kill: %v", ps)
	}
}

// runWhenServed runs the command line args until it succeeds: the
// control socket is served by a goroutine that may not listen yet. It
// gives up after 30 seconds.
func runWhenServed(t *testing.T, out, errb *bytes.Buffer, args ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out.Reset()
		errb.Reset()
		err := run(out, errb, args)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", args[0], err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMarkRefusesOpenControlDir checks that mark does not talk to sockets
// in a control folder that others can write to (a fake program could
// answer "ok" for one that never got the mark), nor in a symbolic link.
func TestMarkRefusesOpenControlDir(t *testing.T) {
	tmp := testtmp.ShortDir(t) // a control folder of its own
	t.Setenv("TMPDIR", tmp)
	dir := tracefmt.ControlDir()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	var out, errb bytes.Buffer
	err := run(&out, &errb, []string{"mark", "x"})
	if err == nil || !strings.Contains(err.Error(), "refusing "+dir+": its mode 0777") {
		t.Errorf("mark in an open control folder: %v", err)
	}
	os.Remove(dir)
	if err := os.Symlink(tmp, dir); err != nil {
		t.Fatal(err)
	}
	err = run(&out, &errb, []string{"pause"})
	if err == nil || !strings.Contains(err.Error(), "refusing "+dir+": it is a symbolic link") {
		t.Errorf("pause with a control folder that is a link: %v", err)
	}
}
