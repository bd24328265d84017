package logrt

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestBatchesKeepEvents runs reads of every kind of field (exitprog
// batch: strings, integers that no literal holds, booleans, lengths;
// runs of one site and one value), with batches and with SUNCAT_BATCH=0,
// and checks that each trace holds exactly the reads the program made,
// each with the value and the stack runtime.Callers gave it, in the
// program's order: in one goroutine, with its marks, pauses and resumes
// in their places (no read made while paused); in four goroutines that
// move between Ps, each goroutine's reads in its order. The two runs
// then read the same, and only the first wrote batch records, holding
// most of its events.
func TestBatchesKeepEvents(t *testing.T) {
	if !batchOn {
		t.Skip("no batches here (no known contexts, or no fine clock)")
	}
	for _, mode := range []string{"batch0", "batch4"} {
		var seqs [2][][]string
		for k, env := range []string{"SUNCAT_BATCH=1", "SUNCAT_BATCH=0"} {
			dir := t.TempDir()
			cmd := exec.Command(exitProg(t), mode, "600")
			cmd.Env = append(os.Environ(), TraceEnv+"="+dir+"/", "SUNCAT_CONTROL=off", "GOMAXPROCS=3", env)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: %v", mode, env, err)
			}
			want := byGoroutine(strings.Split(strings.TrimSpace(string(out)), "\n"))
			files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
			if len(files) != 1 {
				t.Fatalf("%s %s: want one trace, found %v", mode, env, files)
			}
			got := traceLines(t, files[0])
			if len(got) != len(want) {
				t.Fatalf("%s %s: reads of %d goroutines in the trace, %d in the program", mode, env, len(got), len(want))
			}
			for g := range want {
				if d := firstDiff(got[g], want[g]); d >= 0 {
					t.Errorf("%s %s: goroutine %d: line %d of %d/%d: trace %q, program %q", mode, env, g, d, len(got[g]), len(want[g]), at(got[g], d), at(want[g], d))
				}
			}
			seqs[k] = got
			records, entries, events := batchRecords(t, files[0])
			t.Logf("%s %s: %d lines; %d batch records hold %d events of %d", mode, env, len(strings.Split(string(out), "\n")), records, entries, events)
			if k == 0 && entries < events/2 {
				t.Errorf("%s %s: batches hold %d of %d events", mode, env, entries, events)
			}
			// Goroutine 0's items hold -3, -2, ..., 3 and slices of 0 to 6
			// elements: read one after the other, each is the previous
			// integer on its node plus one (version 7), in no bytes.
			if plus := plusOnes(t, files[0]); k == 0 && plus == 0 {
				t.Errorf("%s %s: no entry is the previous integer plus one", mode, env)
			}
			if k == 1 && records != 0 {
				t.Errorf("%s %s: %d batch records", mode, env, records)
			}
		}
		if mode == "batch0" && strings.Join(seqs[0][0], "\n") != strings.Join(seqs[1][0], "\n") {
			t.Errorf("%s: the traces with and without batches differ", mode)
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

func firstDiff(a, b []string) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return len(a)
	}
	return -1
}

// byGoroutine splits the program's lines by goroutine: the first word of
// a read's line; marks, pauses and resumes are the main goroutine's (0).
func byGoroutine(lines []string) [][]string {
	var out [][]string
	for _, l := range lines {
		g := 0
		if w := strings.Fields(l); w[0] != "mark" && w[0] != "pause" && w[0] != "resume" {
			g, _ = strconv.Atoi(w[0])
		}
		for len(out) <= g {
			out = append(out, nil)
		}
		out[g] = append(out[g], l)
	}
	return out
}

// traceLines reads the trace at path into the lines the program prints
// (exitprog batch), by goroutine: the goroutine of a read is told by the
// function its stack started in (batchG<k>, or the main goroutine).
func traceLines(t *testing.T, path string) [][]string {
	t.Helper()
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := tr.Problem(); p != "" {
		t.Fatalf("%s: %s", path, p)
	}
	type line struct {
		seq uint64
		g   int
		s   string
	}
	var ls []line
	for _, e := range tr.Events {
		s := tr.StackOf(e.Stack)
		g := 0
		for _, f := range s.Frames {
			if i := strings.Index(f.Func, "main.batchG"); i >= 0 {
				g, _ = strconv.Atoi(f.Func[i+len("main.batchG"):])
			}
		}
		ls = append(ls, line{e.Seq, g, strconv.Itoa(g) + " " + readKey(s) + " " + e.Value})
	}
	for _, m := range tr.Marks {
		s := m.Kind.String()
		if m.Kind == tracefmt.KindMark {
			s += " " + m.Label
		}
		ls = append(ls, line{m.Seq, 0, s})
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i].seq < ls[j].seq })
	var out [][]string
	for _, l := range ls {
		for len(out) <= l.g {
			out = append(out, nil)
		}
		out[l.g] = append(out[l.g], l.s)
	}
	return out
}

// batchRecords counts the batch records of a trace file and the events
// they hold, and all the events of its event and batch records.
func batchRecords(t *testing.T, path string) (records, entries, events int) {
	t.Helper()
	eachRecord(t, path, func(kind byte, p []byte) {
		switch {
		case kind == tracefmt.RecBatch:
			records++
			k := countEntries(t, p)
			entries += k
			events += k
		case tracefmt.IsEvent(kind):
			events++
		}
	})
	return records, entries, events
}

// plusOnes counts the batch entries of the trace at path whose value is
// the previous integer on their node plus one (value kind 3).
func plusOnes(t *testing.T, path string) int {
	t.Helper()
	n := 0
	eachRecord(t, path, func(kind byte, p []byte) {
		if kind == tracefmt.RecBatch {
			_, plus := batchKinds(t, p)
			n += plus
		}
	})
	return n
}

// countEntries counts the entries of a batch record's payload.
func countEntries(t *testing.T, p []byte) int {
	n, _ := batchKinds(t, p)
	return n
}

// batchKinds counts the entries of a batch record's payload, and those
// among them of value kind 3 (the previous integer plus one).
func batchKinds(t *testing.T, p []byte) (n, plus int) {
	used := int(binary.LittleEndian.Uint32(p))
	p = p[4 : 4+used]
	_, k := binary.Uvarint(p)
	for k < len(p) {
		head, m := binary.Uvarint(p[k:])
		k += m
		if head&4 != 0 {
			_, m = binary.Uvarint(p[k:])
			k += m
		}
		switch head & 3 {
		case 1, 2:
			_, m = binary.Uvarint(p[k:])
			k += m
		case 3:
			plus++
		}
		if m <= 0 {
			t.Fatalf("a batch entry that does not parse")
		}
		n++
	}
	return n, plus
}

// TestIdleTimes: a goroutine that reads the same fields in a loop, pauses
// 80 ms and reads them again (exitprog idle) has each action's reads at
// their own times, in batches and runs of repeats too: a batch or run
// opened before a pause is not joined after it, so -split idle= sees
// every pause.
func TestIdleTimes(t *testing.T) {
	const actions = 4
	for _, env := range []string{"SUNCAT_BATCH=1", "SUNCAT_BATCH=0"} {
		dir := t.TempDir()
		cmd := exec.Command(exitProg(t), "idle", strconv.Itoa(actions))
		cmd.Env = append(os.Environ(), TraceEnv+"="+dir+"/t.suncat", "SUNCAT_CONTROL=off", env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", env, err, out)
		}
		tr, err := tracefile.ReadFile(filepath.Join(dir, "t.suncat"))
		if err != nil {
			t.Fatal(err)
		}
		var groups []int
		for i, e := range tr.Events {
			if i == 0 || e.Time-tr.Events[i-1].Time > int64(40*time.Millisecond) {
				groups = append(groups, 0)
			}
			groups[len(groups)-1]++
		}
		want := []int{10, 10, 10, 10}
		if !slices.Equal(groups, want) {
			t.Errorf("%s: reads between pauses of 40 ms and more %v, want %v", env, groups, want)
		}
	}
}
