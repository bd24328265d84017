package logrt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// buildExitProg builds the test program once per test binary.
var (
	exitProgOnce sync.Once
	exitProgPath string
	exitProgErr  error
)

func exitProg(t *testing.T) string {
	t.Helper()
	exitProgOnce.Do(func() {
		dir, err := sharedDir("logrt-test")
		if err != nil {
			exitProgErr = err
			return
		}
		exitProgPath = filepath.Join(dir, "exitprog")
		out, err := exec.Command("go", "build", "-o", exitProgPath, "./internal/exitprog").CombinedOutput()
		if err != nil {
			exitProgErr = err
			t.Logf("%s", out)
		}
	})
	if exitProgErr != nil {
		t.Fatal(exitProgErr)
	}
	return exitProgPath
}

// runProg runs the test program with its trace in a fresh directory and
// returns the one trace it wrote.
func runProg(t *testing.T, mode string, n int, env ...string) *tracefile.Trace {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(exitProg(t), mode, strconv.Itoa(n))
	cmd.Env = append(append(os.Environ(), TraceEnv+"="+dir, "SUNCAT_CONTROL=off"), env...)
	cmd.Run() // the exit status is the point of the test, not an error
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("%s: want one trace in %s, found %v", mode, dir, files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	return tr
}

func TestExitPaths(t *testing.T) {
	const n = 5000
	modes := []string{"return", "exit", "fatal", "panic", "sigint", "sigterm", "sigkill"}
	if fpSupported {
		// The same with runtime.Callers (frame pointers are the default).
		modes = append(modes, "return/callers", "sigkill/callers")
	}
	for _, name := range modes {
		mode, callers := strings.CutSuffix(name, "/callers")
		var env []string
		if callers {
			env = []string{"SUNCAT_FP=0"}
		}
		t.Run(name, func(t *testing.T) {
			tr := runProg(t, mode, n, env...)
			if len(tr.Events) != n {
				t.Fatalf("%d events after %s, want %d", len(tr.Events), mode, n)
			}
			if tr.Torn {
				t.Errorf("trace reports a torn record")
			}
			if tr.Program != "exitprog" || tr.PID == 0 {
				t.Errorf("header: program %q pid %d", tr.Program, tr.PID)
			}
			want := []string{"Pike St", "Pine St", "3rd Ave"}
			for i, e := range tr.Events {
				if e.Value != want[i%3] {
					t.Fatalf("event %d value %q, want %q", i, e.Value, want[i%3])
				}
				if i > 0 && e.Time < tr.Events[i-1].Time {
					t.Fatalf("event %d goes back in time", i)
				}
			}
			g, ok := tr.GetterOf(tr.Events[0].Getter)
			if !ok || g.Name() != "(*stop).Name" || g.Field != "name" {
				t.Errorf("getter table: %+v", g)
			}
			st := tr.StackOf(tr.Events[0].Stack)
			if st == nil || st.Frames[0].Func != "main.(*stop).Name" || !strings.HasSuffix(st.Frames[0].File, "exitprog/main.go") {
				t.Fatalf("first frame is not the getter: %+v", st)
			}
			if st.Entry != "main.main" {
				t.Errorf("entry %q, want main.main", st.Entry)
			}
			if len(tr.Stacks) != 1 {
				t.Errorf("%d stacks for one call site, want 1 (interning)", len(tr.Stacks))
			}
		})
	}
}

func TestMarksPauseResume(t *testing.T) {
	tr := runProg(t, "marks", 0)
	want := "mark:sub0 Pike St mark:sub1 Pike St Pike St mark:sub2 Pike St Pike St Pike St pause: resume: 3rd Ave"
	if g := recordOrder(tr); g != want {
		t.Errorf("order:\n got %s\nwant %s", g, want)
	}
}

// TestLabels: a Label becomes a mark only when an event follows it; a
// later Label, Mark, Pause or Resume replaces or drops it.
func TestLabels(t *testing.T) {
	tr := runProg(t, "labels", 0)
	want := "mark:T/a Pike St mark:explicit Pine St pause: resume: mark:T/c 3rd Ave 3rd Ave"
	if g := recordOrder(tr); g != want {
		t.Errorf("order:\n got %s\nwant %s", g, want)
	}
}

// recordOrder lists the marks and event values of tr in recorded order.
func recordOrder(tr *tracefile.Trace) string {
	var got []string
	ei, mi := 0, 0
	for ei < len(tr.Events) || mi < len(tr.Marks) {
		if mi < len(tr.Marks) && (ei >= len(tr.Events) || tr.Marks[mi].Seq < tr.Events[ei].Seq) {
			m := tr.Marks[mi]
			got = append(got, m.Kind.String()+":"+m.Label)
			mi++
			continue
		}
		got = append(got, tr.Events[ei].Value)
		ei++
	}
	return strings.Join(got, " ")
}

// TestLongValues: a value longer than MaxValue is cut at a UTF-8 boundary,
// the trace keeps its full length, and a long value that repeats is
// defined once. Each shard defines the values it records, so the program
// runs on one P: a goroutine that moved to another P between two calls
// would record in another shard, which defines the value again.
func TestLongValues(t *testing.T) {
	const n = 50
	tr := runProg(t, "long", n, "GOMAXPROCS=1")
	if len(tr.Events) != n {
		t.Fatalf("%d events, want %d", len(tr.Events), n)
	}
	for _, e := range tr.Events {
		if !e.Truncated || e.Len != 3003 || len(e.Value) != MaxValue-1 || !utf8.ValidString(e.Value) {
			t.Fatalf("cut value: truncated %v, len %d, kept %d bytes, valid UTF-8 %v; want true, 3003, %d, true",
				e.Truncated, e.Len, len(e.Value), utf8.ValidString(e.Value), MaxValue-1)
		}
	}
	if tr.Strings != 1 {
		t.Errorf("%d string definitions for one repeated long value, want 1", tr.Strings)
	}
}

// TestKilledMidWrite kills a program while four goroutines record as fast
// as they can (across a chunk boundary), several times: each trace must
// read without error, and every goroutine's events must be exactly its
// first calls, in order, with nothing missing in between. At most the
// record being written at the kill is lost.
func TestKilledMidWrite(t *testing.T) {
	runs := 3
	if testing.Short() {
		runs = 1
	}
	for r := 0; r < runs; r++ {
		dir := t.TempDir()
		cmd := exec.Command(exitProg(t), "storm", "350000")
		cmd.Env = append(os.Environ(), TraceEnv+"="+dir, "SUNCAT_CONTROL=off")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("program said %q", line)
		}
		time.Sleep(time.Duration(r*7) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
		if len(files) != 1 {
			t.Fatalf("traces: %v", files)
		}
		tr, err := tracefile.ReadFile(files[0])
		if err != nil {
			t.Fatalf("run %d: %v", r, err)
		}
		if len(tr.Events) < 350000 {
			t.Fatalf("run %d: %d events, want at least the 350000 recorded before ready", r, len(tr.Events))
		}
		next := map[string]int{}
		for _, e := range tr.Events {
			g, i, _ := strings.Cut(e.Value, " ")
			if strconv.Itoa(next[g]) != i {
				t.Fatalf("run %d: goroutine %s: event %q at seq %d, want call %d", r, g, e.Value, e.Seq, next[g])
			}
			next[g]++
		}
		if len(next) != 4 {
			t.Errorf("run %d: events from %d goroutines, want 4", r, len(next))
		}
		t.Logf("run %d: %d events, torn record: %v", r, len(tr.Events), tr.Torn)
	}
}

// TestHandledSignal: a program that handles SIGINT itself still gets it,
// with the control channel on, and goes on recording after it.
func TestHandledSignal(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(exitProg(t), "handled", "10")
	cmd.Env = append(os.Environ(), TraceEnv+"="+dir, "TMPDIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("program said %q", line)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the program did not handle its SIGINT: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("traces: %v", files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 10 || len(tr.Marks) != 1 || tr.Marks[0].Label != "handled SIGINT" || tr.Marks[0].Seq != 10 {
		t.Errorf("%d events, marks %+v; want 10 events, then the mark", len(tr.Events), tr.Marks)
	}
}

// TestTraceFileTaken: SUNCAT_TRACE naming a file gives that file to the
// first process; a second one (a re-run, or a child that inherits the
// variable) writes a file of its own beside it instead of clobbering it.
func TestTraceFileTaken(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.suncat")
	for i, n := range []int{3, 5} {
		cmd := exec.Command(exitProg(t), "return", strconv.Itoa(n))
		cmd.Env = append(os.Environ(), TraceEnv+"="+file, "SUNCAT_CONTROL=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("run %d: %v\n%s", i, err, out)
		}
	}
	first, err := tracefile.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	others, _ := filepath.Glob(filepath.Join(dir, "run-exitprog-*.suncat"))
	if len(others) != 1 {
		t.Fatalf("second trace: %v, want one run-exitprog-<pid>-<time>.suncat", others)
	}
	second, err := tracefile.ReadFile(others[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Events) != 3 || len(second.Events) != 5 || first.PID == second.PID {
		t.Errorf("first %d events (pid %d), second %d (pid %d); want 3 and 5 from two processes", len(first.Events), first.PID, len(second.Events), second.PID)
	}
}

// TestTraceFileNewFolder: SUNCAT_TRACE naming a file in a folder not
// made yet (a script's tr/nplus1/n800.suncat) makes the folder, 0700,
// as a folder named with a trailing slash is; it wrote nothing and
// said "trace recording stopped" before (doc/cases/ent-calls.md).
func TestTraceFileNewFolder(t *testing.T) {
	folder := filepath.Join(t.TempDir(), "tr", "nplus1")
	file := filepath.Join(folder, "n800.suncat")
	cmd := exec.Command(exitProg(t), "return", "4")
	cmd.Env = append(os.Environ(), TraceEnv+"="+file, "SUNCAT_CONTROL=off")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "suncat:") {
		t.Fatalf("run: %v\n%s", err, out)
	}
	tr, err := tracefile.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 4 {
		t.Errorf("%d events, want 4", len(tr.Events))
	}
	if fi, err := os.Stat(folder); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("folder: %v, %v; want 0700", fi, err)
	}
}

// TestChunkCount: the header counts the chunks begun, so a file cut after
// a chunk that was not full is read as cut, though every stream in it
// ends as a whole one does; trailing zeros trimmed off the last chunk
// are not a cut, nor are spare chunks mapped but never begun.
func TestChunkCount(t *testing.T) {
	le := binary.LittleEndian
	tr := runProg(t, "return", 100)
	data, err := os.ReadFile(tr.Path)
	if err != nil {
		t.Fatal(err)
	}
	tag, n := le.Uint32(data[headerSize-8:]), le.Uint32(data[headerSize-4:])
	if tag != chunkCountTag || n < 1 || int(n)*chunkSize > len(data) {
		t.Fatalf("header: tag %#x, %d chunks begun in a file of %d; want %#x, 1 to %d", tag, n, len(data), uint32(chunkCountTag), len(data)/chunkSize)
	}
	for i := int(n); i < len(data)/chunkSize; i++ {
		if !allZero(data[i*chunkSize : (i+1)*chunkSize]) {
			t.Fatalf("chunk %d was written, but the header counts %d chunks begun", i, n)
		}
	}
	check := func(what string, b []byte, cut bool) {
		t.Helper()
		got, err := tracefile.Decode("x.suncat", b)
		if err != nil || got.Cut != cut || len(got.Events) != 100 || cut != strings.Contains(got.Problem(), "cut short") {
			t.Errorf("%s: %v, cut %v (want %v), %d events, %q", what, err, got.Cut, cut, len(got.Events), got.Problem())
		}
	}
	check("whole", data, false)
	check("trailing zeros trimmed", bytes.TrimRight(data, "\x00"), false)
	more := append([]byte(nil), data...)
	le.PutUint32(more[headerSize-4:], uint32(len(data)/chunkSize+1)) // one more chunk was begun, and is gone
	check("cut after a chunk that was not full", more, true)
}

// TestKilledBetweenChunks: a shard moving to a new chunk begins it (its
// count, then its chunk record) before it pads the chunk it leaves, so a
// process killed at either point leaves a trace that reads as whole, with
// every event of the first chunk: its stream ends at a zero commit word,
// not at the end of a full chunk with no next one (which reads as a cut).
func TestKilledBetweenChunks(t *testing.T) {
	le := binary.LittleEndian
	tr := runProg(t, "distinct", 200000, "GOMAXPROCS=1")
	data, err := os.ReadFile(tr.Path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []int // the chunks of the shard that wrote the most
	for _, cs := range chunksByShard(data) {
		if len(cs) > len(chunks) {
			chunks = cs
		}
	}
	if len(chunks) < 2 {
		t.Fatalf("no shard wrote more than %d chunk(s), want 2 or more", len(chunks))
	}
	first, second := chunks[0], chunks[1]
	// The state once the first chunk was full, before it was padded.
	d := append([]byte(nil), data...)
	for _, c := range chunks[1:] {
		copy(d[c*chunkSize:(c+1)*chunkSize], make([]byte, chunkSize))
	}
	off := first * chunkSize
	if first == 0 {
		off = headerSize
	}
	for word := le.Uint32(d[off:]); byte(word) != kindPad; word = le.Uint32(d[off:]) {
		off += (4 + int(word>>8) + 3) &^ 3
	}
	pad := le.Uint32(d[off:])
	le.PutUint32(d[off:], 0)
	// The trailer (tracefmt) is written after the next chunk began.
	tail := (first+1)*chunkSize - tracefmt.TrailerSize
	copy(d[tail:tail+tracefmt.TrailerSize], make([]byte, tracefmt.TrailerSize))
	whole, err := tracefile.Decode("x.suncat", d)
	if err != nil || whole.Cut || whole.Torn || len(whole.Events) == 0 {
		t.Fatalf("killed before the next chunk began: %v, cut %v, torn %v, %d events", err, whole.Cut, whole.Torn, len(whole.Events))
	}
	// And once the next chunk's record was written too, before and after
	// the chunk left got its trailer.
	begun := second * chunkSize
	copy(d[begun:], data[begun:begun+4+(int(le.Uint32(data[begun:])>>8)+3)&^3])
	for _, trailer := range []bool{false, true} {
		if trailer {
			copy(d[tail:tail+tracefmt.TrailerSize], data[tail:])
		}
		got, err := tracefile.Decode("x.suncat", d)
		if err != nil || got.Cut || got.Torn || len(got.Events) != len(whole.Events) || got.Problem() != "" {
			t.Fatalf("killed before the chunk left was padded (trailer %v): %v, cut %v, torn %v, %d events (want %d), %q", trailer, err, got.Cut, got.Torn, len(got.Events), len(whole.Events), got.Problem())
		}
	}
	// Padding first would leave, killed before the next chunk began, a
	// full chunk with no next one: a cut, to the reader.
	copy(d[begun:begun+chunkSize], make([]byte, chunkSize))
	le.PutUint32(d[off:], pad)
	if got, err := tracefile.Decode("x.suncat", d); err != nil || !got.Cut {
		t.Fatalf("a full chunk with no next one: %v, cut %v; want a cut", err, got.Cut)
	}
}

// chunksByShard returns, by shard, the chunks that begin with its chunk
// record, in file order.
func chunksByShard(data []byte) map[uint64][]int {
	le := binary.LittleEndian
	chunks := make(map[uint64][]int)
	for c := 0; c < len(data)/chunkSize; c++ {
		start := c * chunkSize
		if c == 0 {
			start = headerSize
		}
		if word := le.Uint32(data[start:]); byte(word) == kindChunk {
			id, _ := binary.Uvarint(data[start+4:])
			chunks[id] = append(chunks[id], c)
		}
	}
	return chunks
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// TestEnd: End, which the instrumenter defers in main, writes one end
// mark after the program's events; a program that recorded nothing gets
// no trace for it.
func TestEnd(t *testing.T) {
	tr := runProg(t, "end", 10)
	if len(tr.Events) != 10 || len(tr.Marks) != 1 || tr.Marks[0].Kind != tracefile.KindEnd {
		t.Fatalf("%d events, marks %+v; want 10 events and one end mark", len(tr.Events), tr.Marks)
	}
	if last := tr.Events[len(tr.Events)-1]; tr.Marks[0].Time < last.Time || tr.Marks[0].Seq <= last.Seq {
		t.Errorf("end mark at %d (seq %d), before the last event at %d (seq %d)", tr.Marks[0].Time, tr.Marks[0].Seq, last.Time, last.Seq)
	}
	dir := t.TempDir()
	cmd := exec.Command(exitProg(t), "end", "0")
	cmd.Env = append(os.Environ(), TraceEnv+"="+dir, "SUNCAT_CONTROL=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("a program that recorded nothing left %v", files)
	}
}
