package logrt

import (
	"runtime"
	"testing"
)

// symbolize turns PCs into "function file:line" frames, leaving out the
// frames the writer leaves out of frame-pointer stacks.
func symbolize(pcs []uintptr) []string {
	var out []string
	it := runtime.CallersFrames(pcs)
	for {
		f, more := it.Next()
		if !elided(f.Function, f.File) {
			out = append(out, f.Function+" "+f.File+":"+itoa(f.Line))
		}
		if !more {
			return out
		}
	}
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// both captures the stack both ways from the same place, as String does.
//
//go:noinline
func both() (fp, callers []string) {
	var a, b [maxFrames]uintptr
	n := fpCallers(a[:])
	m := runtime.Callers(2, b[:])
	return symbolize(a[:n]), symbolize(b[:m])
}

// inlinedCaller is small enough to be inlined into its callers; the
// stacks must still list it.
func inlinedCaller() ([]string, []string) { return both() }

//go:noinline
func deep(n int) ([]string, []string) {
	if n == 0 {
		return inlinedCaller()
	}
	return deep(n - 1)
}

// TestFramePointerMatchesCallers checks the frame-pointer unwinder against
// runtime.Callers at several depths, through an inlined function, and on
// another goroutine.
func TestFramePointerMatchesCallers(t *testing.T) {
	if !fpSupported {
		t.Skip("no frame-pointer unwinding on this architecture")
	}
	check := func(name string, fp, callers []string) {
		t.Helper()
		if len(fp) != len(callers) {
			t.Fatalf("%s: %d frames by frame pointers, %d by runtime.Callers:\n%v\n%v", name, len(fp), len(callers), fp, callers)
		}
		for i := range fp {
			// The call-site line of the frame that captured both stacks
			// differs (two different calls); every other frame is equal.
			if i > 0 && fp[i] != callers[i] {
				t.Errorf("%s: frame %d: %s by frame pointers, %s by runtime.Callers", name, i, fp[i], callers[i])
			}
		}
	}
	for _, depth := range []int{0, 1, 10, 60} {
		fp, callers := deep(depth)
		check("depth "+itoa(depth), fp, callers)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fp, callers := deep(3)
		check("goroutine", fp, callers)
	}()
	<-done
}
