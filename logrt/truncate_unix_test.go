//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// nobody is the user that TestLiveTruncate runs as when the tests run as
// root (who may write to any file, a read-only one too).
const nobody = 65534

// endless records, pinned and locked alike, until its standard input
// reaches its end: it says "ready" once its trace is open, and
// "finished" at the end, on standard output.
func endless() {
	done := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(done) }()
	v := &value{}
	for i := 0; ; i++ {
		v.s = "v" + strconv.Itoa(i%5000)
		v.Get()
		if i == 0 {
			os.Stdout.WriteString("ready\n")
		}
		select {
		case <-done:
			os.Stdout.WriteString("finished\n")
			return
		default:
		}
	}
}

// TestLiveTruncate truncates the trace of a running program from another
// process of the program's user (`: > trace`, truncate -s 0, as a log
// rotation with copytruncate does): the program must run on to its end,
// and the trace read whole. Before, the next store into the mapping of
// the shrunk file killed the program with SIGBUS. The trace is made
// read-only (0400) as soon as it is created; as root, who may write to
// it anyway, the test runs the program and the truncation as nobody.
func TestLiveTruncate(t *testing.T) {
	var cred *syscall.Credential
	bin := os.Args[0]
	base := ""
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		var err error
		if base, err = os.MkdirTemp("/tmp", "trunc"); err != nil {
			t.Skipf("no directory for another user: %v", err)
		}
		defer os.RemoveAll(base)
		bin = filepath.Join(base, "logrt.test")
		data, err := os.ReadFile(os.Args[0])
		if err == nil {
			err = os.WriteFile(bin, data, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(base, 0o755)
		if err := exec.Command("chown", "-R", "65534:65534", base).Run(); err != nil {
			t.Skipf("chown to nobody: %v", err)
		}
		probe := exec.Command(bin, "-test.run=^$")
		probe.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if err := probe.Run(); errors.Is(err, os.ErrPermission) {
			t.Skipf("this machine runs no program as nobody: %v", err) // a sandbox that forbids it
		}
	}
	for _, pin := range []string{"1", "0"} {
		dir := t.TempDir()
		if base != "" {
			dir = filepath.Join(base, "pin"+pin)
			os.Mkdir(dir, 0o700)
			os.Chown(dir, nobody, nobody)
		}
		truncateLive(t, bin, cred, dir, "SUNCAT_PIN="+pin)
	}
}

// truncateLive runs the program endless as cred, truncates its trace as
// cred, and checks that the program finishes, that the truncation was
// refused and that the trace reads whole.
func truncateLive(t *testing.T, bin string, cred *syscall.Credential, dir, pin string) {
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=endless", ControlEnv+"=off", TraceEnv+"="+dir+"/", "TMPDIR="+dir, pin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	if line, _ := out.ReadString('\n'); line != "ready\n" {
		stdin.Close()
		cmd.Wait()
		t.Fatalf("%s: program said %q\n%s", pin, line, stderr.String())
	}
	files := traces(dir)
	if len(files) != 1 {
		t.Fatalf("%s: want one trace, found %v", pin, files)
	}
	testtmp.CheckMode(t, files[0], 0o400)
	if !locked(files[0]) {
		t.Errorf("%s: the running program holds no lock on its trace (suncat clean would remove it)", pin)
	}
	for _, script := range []string{`: > "$0"`, `truncate -s 0 "$0"`, `truncate -s 4096 "$0"`} {
		sh := exec.Command("sh", "-c", script, files[0])
		sh.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		msg, err := sh.CombinedOutput()
		if err == nil {
			t.Errorf("%s: %s: the trace of a running program was truncated", pin, script)
		} else if !strings.Contains(strings.ToLower(string(msg)), "permission denied") {
			t.Errorf("%s: %s: %v %s", pin, script, err, msg)
		}
	}
	stdin.Close()
	rest, _ := io.ReadAll(out)
	if err := cmd.Wait(); err != nil || string(rest) != "finished\n" {
		t.Fatalf("%s: the program died: %v, said %q\n%s", pin, err, rest, stderr.String())
	}
	if locked(files[0]) {
		t.Errorf("%s: the trace is still locked after its program ended", pin)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatalf("%s: %v", pin, err)
	}
	if len(tr.Events) == 0 || tr.Problem() != "" {
		t.Errorf("%s: %d events, %q", pin, len(tr.Events), tr.Problem())
	}
	t.Logf("%s: %d events read", pin, len(tr.Events))
}

// locked reports whether a process holds a lock on the file at path (the
// runtime's, which logrt/host.TraceInUse asks for).
func locked(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == syscall.EWOULDBLOCK
}
