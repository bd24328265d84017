package logrt

import (
	"os"
	"sync"
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
)

// TestMain runs the tests under testtmp, in a temporary directory of
// their own that is removed however they end, and removes, once every
// test and benchmark has run, the directories that the package's tests
// share (the exit program's build, the benchmarks' trace, which grows by
// tens of MiB a benchmark) as soon as they are done with.
func TestMain(m *testing.M) { testtmp.Main(sharedMain{m}) }

type sharedMain struct{ m *testing.M }

func (s sharedMain) Run() int {
	code := s.m.Run()
	sharedDirs.Lock()
	for _, dir := range sharedDirs.list {
		os.RemoveAll(dir)
	}
	sharedDirs.Unlock()
	return code
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
