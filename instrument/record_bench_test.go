package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// BenchmarkRecordingCost runs the recording benchmark program
// (testdata/recbench: 8 workers rendering deep trees, about 10^6 getter
// calls) built plainly and with Build, alternately, in one run, and
// reports the median wall time of each and their ratio (and the same for
// CPU time, user and system, which the other jobs of a shared machine
// disturb less):
//
//	go test -run '^$' -bench RecordingCost -benchtime 9x ./instrument
//
// Each iteration is one run of each binary; the instrumented one writes
// its trace to a temporary directory.
func BenchmarkRecordingCost(b *testing.B) {
	dir, err := filepath.Abs("../testdata/recbench")
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	plain, inst := filepath.Join(tmp, "plain"), filepath.Join(tmp, "instrumented")
	cmd := exec.Command("go", "build", "-o", plain, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	if _, err := Build(context.Background(), BuildOptions{Options: Options{Dir: dir}, Output: inst}); err != nil {
		b.Fatal(err)
	}
	traces := filepath.Join(tmp, "traces") + "/"
	run := func(bin string) (wall, cpu time.Duration) {
		os.RemoveAll(traces)
		c := exec.Command(bin)
		c.Env = append(os.Environ(), "SUNCAT_TRACE="+traces, "SUNCAT_CONTROL=off")
		start := time.Now()
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", bin, err, out)
		}
		return time.Since(start), c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	var pw, pc, iw, ic []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, c := run(plain)
		pw, pc = append(pw, w), append(pc, c)
		w, c = run(inst)
		iw, ic = append(iw, w), append(ic, c)
	}
	b.StopTimer()
	b.ReportMetric(median(pw).Seconds(), "plain-s")
	b.ReportMetric(median(iw).Seconds(), "instrumented-s")
	b.ReportMetric(float64(median(iw))/float64(median(pw)), "ratio")
	b.ReportMetric(float64(median(ic))/float64(median(pc)), "cpu-ratio")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
