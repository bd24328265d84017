package logrt

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/logrt/internal/together"
	"github.com/suncat-go/suncat/logrt/tracefile"
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
// cannot be reserved (ENOSPC), as on a full disk; mode "few" records ten
// events.
func helperMain(mode string) {
	if mode == "bigtable" { // its table, the first, written as the trace opens
		SetGetters(bigTable())
		for i := 0; i < 10; i++ {
			(&value{"x"}).Get()
		}
		os.Stdout.WriteString("finished\n")
		return
	}
	// As generated code does: a reader refuses events of getters that
	// the table lacks.
	SetGetters([]Getter{{ID: 2, Package: "logrt", Receiver: "*value", Method: "Get", Field: "s"}})
	if mode == "serve" {
		controlReadLimit = time.Minute // the test sees the idle client still open
		(&value{"x"}).Get()
		os.Stdout.WriteString("ready\n")
		io.Copy(io.Discard, os.Stdin)
		os.Stdout.WriteString("finished\n")
		return
	}
	if mode == "endless" {
		endless()
		return
	}
	if mode == "nostdout" || mode == "nostdio" {
		closedStdio(mode)
		return
	}
	if mode == "few" {
		for i := 0; i < 10; i++ {
			(&value{"secret"}).Get()
		}
		os.Stdout.WriteString("finished\n")
		return
	}
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
	return runHelperEnv(t, mode, append([]string{TraceEnv + "=" + dir + "/"}, env...)...)
}

// runHelperEnv runs the test binary as an instrumented program in mode,
// with env, and returns its standard output and error; the program must
// end normally.
func runHelperEnv(t *testing.T, mode string, env ...string) (string, string) {
	t.Helper()
	// A program that hangs (a deadlock in the runtime) fails the test
	// rather than the whole run.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode, ControlEnv+"=off"), env...)
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
	tr, err := tracefile.ReadFile(files[0])
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
	defer func() {
		// Busy (a CI run once left it mounted under TMPDIR, which then
		// could not be removed): detach it lazily.
		if err := exec.Command("umount", mnt).Run(); err != nil {
			exec.Command("umount", "-l", mnt).Run()
		}
	}()
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

// TestSizeCapFillsChunks checks that a small cap is filled with records:
// when a P's shard can get no chunk within the cap, its goroutines record
// in the locked shards, in the room their chunks have, and recording
// stops when those are full. Before, the first P's shard that found no
// chunk stopped it: SUNCAT_MAX_SIZE=1M recorded 1 event.
func TestSizeCapFillsChunks(t *testing.T) {
	for _, c := range []string{"1M", "2M"} {
		dir := t.TempDir()
		_, stderr := runHelper(t, "fill", dir, MaxSizeEnv+"="+c, "GOMAXPROCS=4")
		checkStopped(t, c, dir, stderr, "the trace reached its size cap SUNCAT_MAX_SIZE="+c)
		tr, err := tracefile.ReadFile(traces(dir)[0])
		if err != nil {
			t.Fatal(err)
		}
		// 1 MiB holds about 30,000 of these events.
		if len(tr.Events) < 10000 {
			t.Errorf("SUNCAT_MAX_SIZE=%s: %d events recorded, want the cap filled", c, len(tr.Events))
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

// traces returns the traces in dir.
func traces(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	return files
}

// TestPrivateTraces checks that traces are 0600, in a directory made
// 0700: the default one (per user, in TMPDIR) and one SUNCAT_TRACE names.
func TestPrivateTraces(t *testing.T) {
	tmp := t.TempDir()
	runHelperEnv(t, "few", "TMPDIR="+tmp, TraceEnv+"=")
	def := filepath.Join(tmp, "suncat-traces-"+strconv.Itoa(os.Getuid()))
	testtmp.CheckMode(t, def, 0o700)
	files := traces(def)
	if len(files) != 1 {
		t.Fatalf("want one trace in %s, found %v", def, files)
	}
	testtmp.CheckMode(t, files[0], 0o400)

	named := filepath.Join(tmp, "named")
	runHelper(t, "few", named)
	testtmp.CheckMode(t, named, 0o700)
	if files = traces(named); len(files) != 1 {
		t.Fatalf("want one trace in %s, found %v", named, files)
	}
	testtmp.CheckMode(t, files[0], 0o400)
}

// checkRefused runs a program whose default trace directory in tmp was
// prepared to be refused: it must finish, say why on standard error,
// and write no trace.
func checkRefused(t *testing.T, tmp, want string, elsewhere ...string) {
	t.Helper()
	_, stderr := runHelperEnv(t, "few", "TMPDIR="+tmp, TraceEnv+"=")
	if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "suncat: trace recording stopped: refusing "+filepath.Join(tmp, "suncat-traces-")) || !strings.Contains(stderr, want) {
		t.Errorf("want one line refusing the directory (%s), got %q", want, stderr)
	}
	for _, dir := range append(elsewhere, filepath.Join(tmp, "suncat-traces-"+strconv.Itoa(os.Getuid()))) {
		if files := traces(dir); len(files) != 0 {
			t.Errorf("traces written in %s: %v", dir, files)
		}
	}
}

// TestDefaultDirRefused checks that the default trace directory is
// refused when it is open to others, a symbolic link, or (as root) owned
// by another user.
func TestDefaultDirRefused(t *testing.T) {
	def := func(tmp string) string { return filepath.Join(tmp, "suncat-traces-"+strconv.Itoa(os.Getuid())) }

	open := t.TempDir()
	if err := os.Mkdir(def(open), 0o700); err != nil {
		t.Fatal(err)
	}
	os.Chmod(def(open), 0o777)
	checkRefused(t, open, "its mode 0777 opens it to other users")

	link := t.TempDir()
	target := filepath.Join(link, "elsewhere")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, def(link)); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, link, "it is a symbolic link", target)

	if os.Getuid() != 0 {
		t.Skip("a directory of another user needs root to make")
	}
	foreign := t.TempDir()
	if err := os.Mkdir(def(foreign), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(def(foreign), 54321, 54321); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, foreign, "it belongs to uid 54321")
}

// TestTraceSymlink checks that a symbolic link planted at the name
// SUNCAT_TRACE gives is not followed: the trace goes beside it.
func TestTraceSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	name := filepath.Join(dir, "app.suncat")
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
	runHelperEnv(t, "few", TraceEnv+"="+name)
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("the link was followed: %s exists (%v)", target, err)
	}
	files := traces(dir)
	if len(files) != 2 || !strings.HasPrefix(filepath.Base(files[0]), "app-") {
		t.Fatalf("want the link and a trace beside it, found %v", files)
	}
	testtmp.CheckMode(t, files[0], 0o400)
}

// TestControlConcurrent checks that a client that connects and sends
// nothing holds up nobody: another's request is answered while it is
// still connected, and while 64 more are; and that a request line longer
// than maxRequest is refused with an error.
func TestControlConcurrent(t *testing.T) {
	tmp := testtmp.ShortDir(t) // socket paths have a limit
	t.Setenv("TMPDIR", tmp)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=serve", TraceEnv+"="+tmp+"/")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	out := bufio.NewReader(stdout)
	if line, _ := out.ReadString('\n'); line != "ready\n" {
		t.Fatalf("program said %q", line)
	}
	sock := controlSocket(cmd.Process.Pid)
	idle := dialControl(t, sock)
	defer idle.Close()
	idle.Write([]byte("mark half a li"))

	ask := func(req string) string {
		c := dialControl(t, sock)
		defer c.Close()
		// The idle clients have a minute to send their line (serve):
		// a reply that waits for them is too late.
		c.SetDeadline(time.Now().Add(20 * time.Second))
		c.Write([]byte(req))
		reply, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Errorf("%.20q: %v", req, err)
		}
		return reply
	}
	if reply := ask("info\n"); !strings.HasPrefix(reply, "ok "+strconv.Itoa(cmd.Process.Pid)+" ") {
		t.Errorf("info: %q", reply)
	}
	// The idle client is still connected: a read waits (and times out)
	// rather than finding the connection closed.
	idle.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := idle.Read(make([]byte, 1)); !os.IsTimeout(err) {
		t.Errorf("the idle client was dropped before another was answered: %v", err)
	}
	// A crowd of idle clients, more than are served at once, holds up
	// no request either: the longest waiting is let go to make room.
	// Before, 64 of them held an info request for 4 s (with their
	// usual 2 s to send a line; here a minute).
	for i := 0; i < 64; i++ {
		c := dialControl(t, sock)
		defer c.Close()
		c.Write([]byte("inf"))
	}
	if reply := ask("info\n"); !strings.HasPrefix(reply, "ok ") {
		t.Errorf("info after 64 idle clients: %q", reply)
	}
	if reply := ask(strings.Repeat("x", 100000) + "\n"); reply != "error request line longer than 4096 bytes\n" {
		t.Errorf("a long request line: %.80q", reply)
	}
	stdin.Close()
	if line, _ := out.ReadString('\n'); line != "finished\n" {
		t.Errorf("program said %q", line)
	}
}

// TestNoRoomAtStart checks that a trace whose first chunk cannot be
// reserved is removed, with one line on standard error naming its
// directory, and the program runs on.
func TestNoRoomAtStart(t *testing.T) {
	dir := t.TempDir()
	_, stderr := runHelper(t, "few", dir, MaxSizeEnv+"=4K")
	want := "suncat: trace recording stopped: the trace reached its size cap SUNCAT_MAX_SIZE=4K (a trace in " + dir + ")\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("left in %s: %v", dir, files)
	}
}

// TestTraceDevNull checks that SUNCAT_TRACE naming a device (or a FIFO)
// records nothing, with one line, and writes no trace beside it: as
// root, SUNCAT_TRACE=/dev/null wrote a trace of 12 MB into /dev.
func TestTraceDevNull(t *testing.T) {
	before, _ := filepath.Glob("/dev/null-*")
	_, stderr := runHelperEnv(t, "few", TraceEnv+"=/dev/null")
	want := "suncat: trace recording stopped: SUNCAT_TRACE=/dev/null: not a directory or a regular file; nothing is recorded\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if after, _ := filepath.Glob("/dev/null-*"); len(after) != len(before) {
		t.Errorf("traces written in /dev: %v", after)
		for _, p := range after {
			if !contains(before, p) {
				os.Remove(p)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestBadMaxSize checks that a SUNCAT_MAX_SIZE that is not a size is
// said once, and the default cap is used: recording goes on.
func TestBadMaxSize(t *testing.T) {
	dir := t.TempDir()
	_, stderr := runHelper(t, "few", dir, MaxSizeEnv+"=lots")
	want := "suncat: SUNCAT_MAX_SIZE=\"lots\": not a size (bytes, or a number with K, M, G or T); the trace is capped at 1G\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if files := traces(dir); len(files) != 1 {
		t.Errorf("want one trace, found %v", files)
	}
}

// closedStdio plays a daemon that closes its standard output: in mode
// "nostdout" after its trace and control socket are open, so that an
// accepted control connection is the next descriptor, 1; in mode
// "nostdio" before its trace opens, which then is the next descriptor.
// It says "ready" on standard error, waits for its standard input to
// reach its end, writes a line to descriptor 1 as a program might
// (syscall.Write, or a C library), and says "finished".
func closedStdio(mode string) {
	if mode == "nostdio" {
		os.Stdout.Close()
	}
	(&value{"x"}).Get()
	if mode == "nostdout" {
		os.Stdout.Close()
	}
	os.Stderr.WriteString("ready\n")
	io.Copy(io.Discard, os.Stdin)
	syscall.Write(1, []byte("a line to a closed standard output\n"))
	(&value{"y"}).Get()
	os.Stderr.WriteString("finished\n")
}

// TestControlClosedStdout checks that a program that closed its standard
// output (a daemon) survives a control client that sends a request and
// hangs up before it reads the reply: the connection must not be
// descriptor 1, where a write to a closed peer raises SIGPIPE (exit 141).
// In mode "nostdio" the trace must not take descriptor 1 either (the
// program's writes to 1 would land in it): it must read whole.
func TestControlClosedStdout(t *testing.T) {
	for _, mode := range []string{"nostdout", "nostdio"} {
		for i := 0; i < 3; i++ {
			hangUp(t, mode)
		}
	}
}

// hangUp runs the program in mode, sends it "info" from clients that
// hang up at once, and checks that it finishes and its trace reads.
func hangUp(t *testing.T, mode string) {
	tmp := testtmp.ShortDir(t) // socket paths have a limit
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, TraceEnv+"="+tmp+"/", "TMPDIR="+tmp)
	sayR, sayW, _ := os.Pipe()
	waitR, waitW, _ := os.Pipe()
	defer sayR.Close()
	defer waitW.Close()
	cmd.Stderr, cmd.Stdin = sayW, waitR
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sayW.Close()
	waitR.Close()
	say := bufio.NewReader(sayR)
	if line, _ := say.ReadString('\n'); line != "ready\n" {
		cmd.Wait()
		t.Fatalf("%s: program said %q", mode, line)
	}
	t.Setenv("TMPDIR", tmp)
	sock := controlSocket(cmd.Process.Pid)
	for i := 0; i < 5; i++ {
		c := dialControl(t, sock)
		c.Write([]byte("info\n"))
		c.Close()
	}
	// A last client that reads its reply: the program served the others.
	c := dialControl(t, sock)
	c.Write([]byte("info\n"))
	reply, _ := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if !strings.HasPrefix(reply, "ok "+strconv.Itoa(cmd.Process.Pid)+" ") {
		t.Errorf("%s: info: %q", mode, reply)
	}
	waitW.Close()
	rest, _ := io.ReadAll(say)
	if err := cmd.Wait(); err != nil || string(rest) != "finished\n" {
		t.Fatalf("%s: the program died: %v, said %q", mode, err, rest)
	}
	files := traces(tmp)
	if len(files) != 1 {
		t.Fatalf("%s: want one trace, found %v", mode, files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	if len(tr.Events) != 2 || tr.Problem() != "" {
		t.Errorf("%s: trace: %d events, %q", mode, len(tr.Events), tr.Problem())
	}
}

// dialControl connects to the control socket sock, which may not listen
// yet.
func dialControl(t *testing.T, sock string) net.Conn {
	t.Helper()
	for i := 0; ; i++ {
		c, err := net.Dial("unix", sock)
		if err == nil {
			return c
		}
		if i == 1000 {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
