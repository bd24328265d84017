package testtrace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Loops records about n events of nested loops in four marked sub-traces
// into a new directory under dir and returns the trace's path.
func Loops(dir string, n int) (string, error) {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("testtrace: cannot find the test program's source")
	}
	src := filepath.Join(filepath.Dir(self), "..", "..", "logrt", "internal", "exitprog")
	bin := filepath.Join(dir, "exitprog")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("testtrace: %v\n%s", err, out)
	}
	traces := filepath.Join(dir, "traces")
	cmd := exec.Command(bin, "loops", strconv.Itoa(n))
	cmd.Env = append(os.Environ(), "SUNCAT_TRACE="+traces+"/", "SUNCAT_CONTROL=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("testtrace: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	if len(files) != 1 {
		return "", fmt.Errorf("testtrace: want one trace, found %v", files)
	}
	return files[0], nil
}

var (
	sharedMu sync.Mutex
	shared   = map[int]string{}
)

// Shared returns a trace of about n events recorded by Loops once per
// process (into a temporary directory), for benchmarks.
func Shared(n int) (string, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if p, ok := shared[n]; ok {
		return p, nil
	}
	dir, err := os.MkdirTemp("", "suncat-testtrace")
	if err != nil {
		return "", err
	}
	p, err := Loops(dir, n)
	if err == nil {
		shared[n] = p
	}
	return p, err
}

// Copies writes n copies of each trace file of paths into a temporary
// directory of tb's, named after it (busapp.suncat: busapp-a.suncat,
// busapp-b.suncat, ...), and returns their paths: the copies of the
// first file, then the second's. It stops tb on an error.
func Copies(tb testing.TB, n int, paths ...string) []string {
	tb.Helper()
	dir := tb.TempDir()
	var files []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(p), ".suncat")
		for i := 0; i < n; i++ {
			f := filepath.Join(dir, base+"-"+string(rune('a'+i))+".suncat")
			if err := os.WriteFile(f, data, 0o644); err != nil {
				tb.Fatal(err)
			}
			files = append(files, f)
		}
	}
	return files
}
