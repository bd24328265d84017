//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuildInterrupt sends SIGINT to suncat instrument while go build
// runs (a stand-in go command that waits for it): suncat must remove the
// build's work folder, say so in one line and exit with status 130.
func TestBuildInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds suncat")
	}
	bin := suncatBinary(t)
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	tmp := t.TempDir()
	mod, fake, cache := filepath.Join(tmp, "mod"), filepath.Join(tmp, "bin"), filepath.Join(tmp, "cache")
	mark := filepath.Join(tmp, "building")
	for name, text := range map[string]string{
		"mod/go.mod":  "module example.com/app\n\ngo 1.22\n",
		"mod/main.go": "package main\n\ntype S struct{ s string }\n\nfunc (x S) Get() string { return x.s }\n\nfunc main() { println(S{\"a\"}.Get()) }\n",
		"bin/go":      "#!/bin/sh\nif [ \"$1\" = build ]; then : > " + mark + "; exec sleep 30; fi\nexec " + realGo + " \"$@\"\n",
	} {
		path := filepath.Join(tmp, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "instrument", ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_CACHE_HOME="+cache)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
wait:
	for {
		select {
		case werr = <-done:
			t.Fatalf("suncat ended before the build began: %v\n%s", werr, stderr.String())
		default:
		}
		if _, err := os.Stat(mark); err == nil {
			break wait
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	werr = <-done
	var ee *exec.ExitError
	if !errors.As(werr, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130", werr)
	}
	if !strings.HasSuffix(stderr.String(), "suncat: instrument: interrupted; the build's work folder was removed\n") {
		t.Errorf("stderr: %q", stderr.String())
	}
	work, _ := os.ReadDir(filepath.Join(cache, "suncat", "work"))
	if len(work) != 0 {
		t.Errorf("work folders left behind: %v", work)
	}
}
