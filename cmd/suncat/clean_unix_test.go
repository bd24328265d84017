//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCleanKeepsLiveTraces: suncat clean leaves alone the trace of a
// program still recording (the runtime holds a shared lock on it; here
// the test does), and the folder that holds it, in -n and for real; the
// rest goes. Before, it deleted the trace, and the program recorded on
// into a file that no longer had a name.
func TestCleanKeepsLiveTraces(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	dir := filepath.Join(tmp, "suncat-traces-"+strconv.Itoa(os.Getuid()))
	live := filepath.Join(dir, "run-1", "app-1.suncat")
	done := filepath.Join(dir, "run-1", "app-2.suncat")
	old := filepath.Join(dir, "run-0", "app-0.suncat")
	for _, p := range []string{live, done, old} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("trace"), 0o400); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		t.Skipf("flock: %v", err)
	}
	for _, args := range [][]string{{"clean", "-n", "-traces"}, {"clean", "-traces"}} {
		var out, errb bytes.Buffer
		if err := run(&out, &errb, args); err != nil {
			t.Fatalf("%v: %v %s", args, err, errb.String())
		}
		want := "kept 1 trace of programs still running)\nkept " + live + ": its program is still running\n"
		if !strings.HasSuffix(out.String(), want) || !strings.Contains(out.String(), "(traces: 2 files, 10 B;") {
			t.Errorf("%v: stdout %q, want it to end %q", args, out.String(), want)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live trace was removed: %v", err)
	}
	for _, p := range []string{done, filepath.Dir(old)} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s was not removed (%v)", p, err)
		}
	}
}

// TestCleanRefusesForeignCache: a build cache path that holds what
// suncat never puts there (XDG_CACHE_HOME pointed at a folder with a
// project named suncat) is refused, in -n as for real, with one line and
// exit status 1; the traces are cleaned all the same.
func TestCleanRefusesForeignCache(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_CACHE_HOME", tmp)
	src := filepath.Join(tmp, "suncat", "src", "main.go")
	traces := filepath.Join(tmp, "suncat-traces-"+strconv.Itoa(os.Getuid()))
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(src, []byte("package main\n"), 0o644)
	os.MkdirAll(filepath.Join(tmp, "suncat", "bin"), 0o700)
	os.Mkdir(traces, 0o700)
	for _, args := range [][]string{{"clean", "-n"}, {"clean"}} {
		var out, errb bytes.Buffer
		status := exitCode(run(&out, &errb, args), &errb)
		want := "suncat: clean: refusing " + filepath.Join(tmp, "suncat") + ": it holds src, which suncat's build cache does not (only analysis, bin, deps and work): not suncat's?\n"
		if status != 1 || errb.String() != want || !strings.Contains(out.String(), traces) {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 1, %q and the traces", args, status, errb.String(), out.String(), want)
		}
	}
	if _, err := os.Stat(src); err != nil {
		t.Errorf("the foreign cache was removed: %v", err)
	}
	if _, err := os.Stat(traces); !os.IsNotExist(err) {
		t.Errorf("the traces were not removed: %v", err)
	}
}
