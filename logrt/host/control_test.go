//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestLiveProcessesKeepsStartingSocket: a socket that refuses connections
// is removed only when its process is gone. A live process may have bound
// its socket and not be listening yet (its runtime names the socket only
// once it listens, but sockets of older builds may be met too).
func TestLiveProcessesKeepsStartingSocket(t *testing.T) {
	sock := controlDir(t)
	live := sock(os.Getpid(), false) // bound, not listening: connections are refused
	dead := sock(1<<30, false)       // no such pid
	ps, err := LiveProcesses()
	if err != nil || len(ps) != 0 {
		t.Fatalf("LiveProcesses = %v, %v; want none answering", ps, err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the socket of a live process that does not listen yet was removed: %v", err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the socket of a process that is gone was kept (%v)", err)
	}
}

// TestRemoveStaleSockets: the sockets of processes that are gone are
// listed and removed; one of a live process (this one, refusing) and
// one that answers are kept.
func TestRemoveStaleSockets(t *testing.T) {
	sock := controlDir(t)
	dir := tracefmt.ControlDir()
	live := sock(os.Getpid(), false)
	answers := sock(1<<30-1, true) // no such pid, but it listens
	dead := sock(1<<30, false)
	// A program that ended between binding and naming its socket.
	unnamed := filepath.Join(dir, strconv.Itoa(1<<30+1)+".sock.new")
	if err := os.WriteFile(unnamed, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	stale, err := StaleSockets()
	if err != nil || len(stale) != 2 || stale[0] != dead || stale[1] != unnamed {
		t.Fatalf("StaleSockets = %q, %v; want [%s %s]", stale, err, dead, unnamed)
	}
	if n := RemoveStaleSockets(); n != 2 {
		t.Errorf("RemoveStaleSockets removed %d, want 2", n)
	}
	for _, p := range []string{live, answers} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the socket of a process that is gone was kept (%v)", err)
	}
}

// controlDir makes a private control directory under a short TMPDIR of
// the test's own (socket paths are limited) and returns a function that
// makes the socket of a pid in it, bound, and listening if asked.
func controlDir(t *testing.T) func(pid int, listen bool) string {
	t.Setenv("TMPDIR", testtmp.ShortDir(t))
	dir := tracefmt.ControlDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return func(pid int, listen bool) string {
		path := filepath.Join(dir, strconv.Itoa(pid)+".sock")
		fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Close(fd) })
		if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
			t.Fatal(err)
		}
		if listen {
			if err := syscall.Listen(fd, 1); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
}
