package logrt

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

type value struct{ s string }

//go:noinline
func (v *value) Get() string { return String(2, v.s) }

// TestConcurrent records from 8 goroutines at once in this process (run it
// under -race) and checks that no event is lost or garbled. It is the only
// test that uses this process's own writer.
func TestConcurrent(t *testing.T) {
	const goroutines, calls = 8, 100000
	n := calls
	if testing.Short() {
		n = calls / 10
	}
	dir := t.TempDir()
	t.Setenv(TraceEnv, dir)
	t.Setenv("SUNCAT_CONTROL", "off")
	SetGetters([]Getter{{ID: 2, Package: "logrt", Receiver: "*value", Method: "Get", Field: "s"}})
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			v := &value{s: "goroutine " + strconv.Itoa(g)}
			for i := 0; i < n; i++ {
				v.Get()
			}
		}(g)
	}
	wg.Wait()
	path := TracePath()
	if filepath.Dir(path) != dir {
		t.Fatalf("trace at %q, want it in %s", path, dir)
	}
	tr, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != goroutines*n {
		t.Fatalf("%d events, want %d", len(tr.Events), goroutines*n)
	}
	per := map[string]int{}
	for _, e := range tr.Events {
		per[e.Value]++
	}
	for g := 0; g < goroutines; g++ {
		if c := per["goroutine "+strconv.Itoa(g)]; c != n {
			t.Errorf("goroutine %d: %d events, want %d", g, c, n)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d events in %d stacks; file %d bytes (sparse)", len(tr.Events), len(tr.Stacks), st.Size())
}
