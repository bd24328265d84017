package prioritize

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// memSources reads the files of a map, by path, as a caller's reader
// would read them from disk.
func memSources(files map[string]string) *Sources {
	return NewSources(func(path string) ([]byte, error) {
		src, ok := files[path]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return []byte(src), nil
	})
}

// TestSourcesRead: the findings read the user's files only through the
// caller's Sources, each file once over several computations (suncat
// test fits each family over the same files), and none without one:
// then no loop is found and each finding is named by the frame that sets
// its site apart.
func TestSourcesRead(t *testing.T) {
	tr := loopsTrace(t).tr
	var mu sync.Mutex
	reads := map[string]int{}
	src := NewSources(func(path string) ([]byte, error) {
		mu.Lock()
		reads[path]++
		mu.Unlock()
		return os.ReadFile(path)
	})
	s, err := Build([]*tracefile.Trace{tr}, Options{Sources: src})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FindingsOf(s, nil, Options{Sources: src}); err != nil {
		t.Fatal(err)
	}
	loops := filepath.Join("testdata", "loops", "loops.go")
	for path, n := range reads {
		if n != 1 {
			t.Errorf("%s read %d times, want once", path, n)
		}
	}
	if abs, _ := filepath.Abs(loops); reads[abs] != 1 {
		t.Errorf("reads %v: %s not among them", reads, abs)
	}
	byWhy := func(f *Findings) map[string]int {
		m := map[string]int{}
		for _, d := range f.Findings {
			m[d.Why]++
		}
		return m
	}
	if got := byWhy(s.Findings); got[WhyLoop] == 0 {
		t.Errorf("with the sources, no finding is named by its loop: %v", got)
	}
	none, err := Build([]*tracefile.Trace{tr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := byWhy(none.Findings); got[WhyLoop] != 0 {
		t.Errorf("without sources, %d findings are named by a loop", got[WhyLoop])
	}
}
