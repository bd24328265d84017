package logrt

import (
	"os"
	"sync"
	"testing"
)

// TestMain removes, once every test and benchmark has run, the
// directories that the package's tests share (the exit program's build,
// the benchmarks' trace, which grows by tens of MiB a benchmark): nothing
// of a test run is left in the temporary directory.
func TestMain(m *testing.M) {
	code := m.Run()
	sharedDirs.Lock()
	for _, dir := range sharedDirs.list {
		os.RemoveAll(dir)
	}
	sharedDirs.Unlock()
	os.Exit(code)
}

// sharedDirs are the temporary directories that live as long as the test
// binary (sharedDir).
var sharedDirs struct {
	sync.Mutex
	list []string
}

// sharedDir makes a temporary directory that TestMain removes at the end.
func sharedDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		sharedDirs.Lock()
		sharedDirs.list = append(sharedDirs.list, dir)
		sharedDirs.Unlock()
	}
	return dir, err
}
