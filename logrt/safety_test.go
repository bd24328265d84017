package logrt

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/suncat-go/suncat/logrt/internal/together"
)

// helperEnv makes the test binary, run again by a test, play an
// instrumented program (helperMain) instead of running tests.
const helperEnv = "SUNCAT_TEST_HELPER"

func init() {
	if mode := os.Getenv(helperEnv); mode != "" {
		helperMain(mode)
		os.Exit(0)
	}
}

// helperMain records from four goroutines, 200000 distinct values each,
// and prints "finished": in mode "nospace" every chunk after the third
// cannot be reserved (ENOSPC), as on a full disk.
func helperMain(mode string) {
	if mode == "nospace" {
		reserveHook = func(f *os.File, off, n int64) error {
			if off >= 3*chunkSize {
				return &os.PathError{Op: "fallocate", Path: f.Name(), Err: syscall.ENOSPC}
			}
			return reserveSpace(f, off, n)
		}
	}
	together.Run(4, func(g int) {
		v := &value{}
		for i := 0; i < 200000; i++ {
			v.s = "g" + strconv.Itoa(g) + " " + strconv.Itoa(i)
			v.Get()
		}
	})
	os.Stdout.WriteString("finished\n")
}

// runHelper runs the test binary as an instrumented program in mode, its
// trace going to dir, and returns its standard output and error; the
// program must end normally.
func runHelper(t *testing.T, mode, dir string, env ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode, TraceEnv+"="+dir+"/", ControlEnv+"=off"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", mode, env, err, stderr.String())
	}
	if stdout.String() != "finished\n" {
		t.Fatalf("%s %v: the program did not finish: %q\n%s", mode, env, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// checkStopped checks that the program said once on standard error that
// recording stopped, for the reason given, and that its trace in dir
// holds events and a note saying so.
func checkStopped(t *testing.T, what, dir, stderr, reason string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "suncat: trace recording stopped: "+reason) {
		t.Errorf("%s: want one line on standard error about %q, got %q", what, reason, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("%s: want one trace, found %v", what, files)
	}
	tr, err := ReadFile(files[0])
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want := "recording stopped: " + reason
	if tr.Stopped != want || len(tr.Events) == 0 || tr.Damage != nil || tr.Cut || tr.Torn {
		t.Errorf("%s: note %q (want %q), %d events, damage %v, cut %v, torn %v", what, tr.Stopped, want, len(tr.Events), tr.Damage, tr.Cut, tr.Torn)
	}
	if p := tr.Problem(); p != want+" after "+strconv.Itoa(len(tr.Events))+" events" {
		t.Errorf("%s: problem %q", what, p)
	}
	t.Logf("%s: %s", what, tr.Problem())
}

// TestNoSpace checks that a chunk whose space cannot be reserved stops
// recording, with a note, and the program goes on to its end, pinned or
// not.
func TestNoSpace(t *testing.T) {
	for _, pin := range []string{"1", "0"} {
		dir := t.TempDir()
		_, stderr := runHelper(t, "nospace", dir, "SUNCAT_PIN="+pin)
		checkStopped(t, "SUNCAT_PIN="+pin, dir, stderr, "no space left on device")
	}
}

// TestFullDisk fills a small tmpfs (which needs root) with the trace:
// the program must finish normally, with a note in its trace. Before the
// space of chunks was reserved, it died of SIGBUS in a getter.
func TestFullDisk(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=3500k", "suncat-test", mnt).CombinedOutput(); err != nil {
		t.Skipf("mount: %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	for _, pin := range []string{"1", "0"} {
		dir := filepath.Join(mnt, "pin"+pin)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		_, stderr := runHelper(t, "fill", dir, "SUNCAT_PIN="+pin)
		checkStopped(t, "SUNCAT_PIN="+pin, dir, stderr, "no space left on device")
		os.RemoveAll(dir)
	}
}

// TestSizeCap checks that SUNCAT_MAX_SIZE stops recording at the cap,
// with a note, and that the trace stays within it.
func TestSizeCap(t *testing.T) {
	for _, pin := range []string{"1", "0"} {
		dir := t.TempDir()
		_, stderr := runHelper(t, "fill", dir, "SUNCAT_PIN="+pin, MaxSizeEnv+"=3M")
		checkStopped(t, "SUNCAT_PIN="+pin, dir, stderr, "the trace reached its size cap SUNCAT_MAX_SIZE=3M")
		files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
		if fi, err := os.Stat(files[0]); err != nil || fi.Size() > 3<<20 {
			t.Errorf("SUNCAT_PIN=%s: trace of %d bytes (%v), over the cap", pin, fi.Size(), err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"0", 0}, {"12345", 12345}, {"512M", 512 << 20}, {"2G", 2 << 30}, {"2g", 2 << 30}, {"3MiB", 3 << 20}, {"64K", 64 << 10}, {"1T", 1 << 40}, {" 7 ", 7}} {
		if got, err := ParseSize(c.in); err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "-1", "M", "1.5G", "12X", "99999999999T"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}
