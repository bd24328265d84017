package testhook

import (
	"testing"

	"github.com/suncat-go/suncat/logrt"
)

// Start labels the events of a top-level test or benchmark from now on;
// a benchmark's label carries the b.N of the run, as the testing
// package's hook gives it: "BenchmarkX (b.N=1000)".
func Start(tb testing.TB) {
	tb.Cleanup(logrt.EndSpan) // registered first: it runs after the test's own
	if b, ok := tb.(*testing.B); ok {
		logrt.Label(benchLabel(b))
		return
	}
	logrt.Label(tb.Name())
}

// benchLabel is a benchmark's name with the b.N of its run.
func benchLabel(b *testing.B) string {
	n, digits := b.N, ""
	for {
		digits = string(rune('0'+n%10)) + digits
		n /= 10
		if n == 0 {
			break
		}
	}
	return b.Name() + " (b.N=" + digits + ")"
}

// Label labels the events from now on with name: an example's, or
// TestMain's.
func Label(name string) { logrt.Label(name) }

// MainRun runs the tests as m.Run does, and labels the events of TestMain
// after them with its name.
func MainRun(m *testing.M) int {
	code := m.Run()
	logrt.Label("TestMain")
	return code
}

// Run runs f as the subtest name of t, as t.Run does, labelling the
// subtest's events with its full name and the parent's events after it
// with the parent's.
func Run(t *testing.T, name string, f func(t *testing.T)) bool {
	if f == nil {
		return t.Run(name, f)
	}
	ok := t.Run(name, func(t *testing.T) {
		logrt.Label(t.Name())
		t.Cleanup(logrt.EndSpan)
		f(t)
	})
	logrt.Label(t.Name())
	return ok
}

// RunB is Run for benchmarks.
func RunB(b *testing.B, name string, f func(b *testing.B)) bool {
	if f == nil {
		return b.Run(name, f)
	}
	ok := b.Run(name, func(b *testing.B) {
		logrt.Label(benchLabel(b))
		b.Cleanup(logrt.EndSpan)
		f(b)
	})
	logrt.Label(b.Name())
	return ok
}

// Cleanup registers f as tb.Cleanup does, labelling its events with the
// test's name (it may run after subtests that were labelled otherwise).
func Cleanup(tb testing.TB, f func()) {
	if f == nil {
		tb.Cleanup(f)
		return
	}
	tb.Cleanup(func() {
		logrt.Label(tb.Name())
		f()
	})
}

// Parallel calls t.Parallel, which returns when the test resumes, and
// labels the test's events from then on with its name again.
func Parallel(t *testing.T) {
	t.Parallel()
	logrt.Label(t.Name())
}
