package logrt

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestRepeatsFarCallers runs reads whose call chains differ only far from
// the read (exitprog far: the reading frame at the same address, from one
// of four outer functions, runs of one to four calls, in one run in three
// with two values taking turns), and checks that the trace holds exactly
// one event for each call, each with the value and the stack
// runtime.Callers gave the program at that call, that runs were counted
// in repeat records, and that the program did switch outer functions
// under a frame at the same address (else the test tests nothing), with
// SUNCAT_BATCH=0; with batches, that runs were written in batch records
// (short runs go on in a batch, a byte a call). With SUNCAT_REPEAT=0 (no
// known contexts), the same without repeats nor batches.
func TestRepeatsFarCallers(t *testing.T) {
	if !ctxOn {
		t.Skip("no repeats here (no frame-pointer unwinding, or no mapped chunks)")
	}
	for _, env := range []string{"SUNCAT_REPEAT=1 SUNCAT_BATCH=0", "SUNCAT_REPEAT=1", "SUNCAT_REPEAT=0"} {
		dir := t.TempDir()
		lines := printed(t, env, dir, "far", "400")
		keys, last := lines[:len(lines)-1], lines[len(lines)-1]
		if sw, _ := strconv.Atoi(strings.TrimPrefix(last, "switches ")); sw < 50 {
			t.Fatalf("%s: %q: the reading frame rarely stayed where it was while the outer function changed", env, last)
		}
		file := sameStacks(t, env, dir, keys)
		records, repeated := repeatRecords(t, file)
		batches, entries, _ := batchRecords(t, file)
		t.Logf("%s: %d calls, %s; %d repeat records count %d; %d batch records hold %d", env, len(keys), last, records, repeated, batches, entries)
		switch {
		case env == "SUNCAT_REPEAT=1 SUNCAT_BATCH=0" && (records == 0 || repeated < len(keys)/20 || batches != 0):
			t.Errorf("%s: %d repeat records counting %d of %d calls, %d batches: runs were not counted", env, records, repeated, len(keys), batches)
		case env == "SUNCAT_REPEAT=1" && batchOn && entries < len(keys)/2:
			t.Errorf("%s: %d batch records hold %d of %d calls", env, batches, entries, len(keys))
		case env == "SUNCAT_REPEAT=0" && records+batches != 0:
			t.Errorf("%s: %d repeat records, %d batch records", env, records, batches)
		}
	}
}

// printed runs exitprog mode n with env (variables separated by
// spaces), its trace in dir, and returns the lines it printed.
func printed(t *testing.T, env, dir, mode, n string) []string {
	t.Helper()
	cmd := exec.Command(exitProg(t), mode, n)
	cmd.Env = append(append(os.Environ(), TraceEnv+"="+dir+"/", "SUNCAT_CONTROL=off"), strings.Fields(env)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: exitprog %s: %v", env, mode, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// sameStacks checks that the one trace in dir holds an event for each
// line the program printed, keys, in order: each with the key of the
// stack (readKey) and the value that the program printed (its stack as
// runtime.Callers saw it). It returns the trace's file.
func sameStacks(t *testing.T, env, dir string, keys []string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	if len(files) != 1 {
		t.Fatalf("%s: want one trace, found %v", env, files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != len(keys) {
		t.Fatalf("%s: %d events for %d calls", env, len(tr.Events), len(keys))
	}
	bad := 0
	for i, e := range tr.Events {
		if s := tr.StackOf(e.Stack); s == nil || len(s.Frames) < 1 || readKey(s)+" "+e.Value != keys[i] {
			if bad++; bad <= 3 {
				t.Errorf("%s: event %d: stack %v, value %q; runtime.Callers and the program gave %q", env, i, s, e.Value, keys[i])
			}
		}
	}
	return files[0]
}

// readKey is the key of a read's stack (tracefile.StackKey), which
// starts at the reading function: the recorder's frame is not recorded.
func readKey(s *tracefile.Stack) string {
	return tracefile.StackKey(&frameIter{s.Frames})
}

type frameIter struct{ fs []tracefile.Frame }

func (it *frameIter) Next() (runtime.Frame, bool) {
	f := it.fs[0]
	it.fs = it.fs[1:]
	return runtime.Frame{Function: f.Func, File: f.File, Line: f.Line}, len(it.fs) > 0
}

// repeatRecords counts the repeat records of a trace file, and the
// repeats they count.
func repeatRecords(t *testing.T, path string) (records, repeated int) {
	t.Helper()
	eachRecord(t, path, func(kind byte, p []byte) {
		if kind == tracefmt.RecRepeat {
			records++
			repeated += int(binary.LittleEndian.Uint32(p) &^ tracefmt.RepeatFlag)
		}
	})
	return records, repeated
}

// eachRecord calls fn with the kind and the payload of each record of a
// trace file, walking each chunk's records.
func eachRecord(t *testing.T, path string, fn func(kind byte, p []byte)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(b); start += chunkSize {
		off := start
		if start == 0 {
			off = headerSize
		}
		for off+4 <= len(b) && off+4 <= start+chunkSize {
			word := binary.LittleEndian.Uint32(b[off:])
			if word == 0 {
				break
			}
			n := int(word >> 8)
			fn(byte(word), b[off+4:off+4+n])
			off += (4 + n + 3) &^ 3
		}
	}
}
