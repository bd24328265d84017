package logrt

import (
	"math/rand"
	"os"
	"runtime"
	"testing"
	"unsafe"
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
	n := fpCallers(a[:], nil, nil)
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

// TestFramePointerCalibrated checks that the frame-pointer unwinder passed
// its calibration where it is supported, so that a compiler change that
// breaks it shows here rather than as a silent fall back to
// runtime.Callers.
func TestFramePointerCalibrated(t *testing.T) {
	if !fpSupported {
		t.Skip("no frame-pointer unwinding on this architecture")
	}
	if !useFP && os.Getenv("SUNCAT_FP") != "0" {
		t.Fatal("frame-pointer unwinding failed its calibration")
	}
}

// A randomPath is a random path of calls of different shapes; at its end
// both unwinders capture the stack.
type randomPath struct {
	steps   []byte
	fp, cal []string
}

type treeRecv struct{ t *randomPath }

//go:noinline
func (r treeRecv) method(i int) { r.t.step(i) }

// inlinable is small enough to be inlined into step.
func (t *randomPath) inlinable(i int) { t.step(i) }

//go:noinline
func (t *randomPath) step(i int) {
	if i == len(t.steps) {
		t.fp, t.cal = both()
		return
	}
	switch t.steps[i] % 8 {
	case 0:
		t.step(i + 1)
	case 1:
		t.inlinable(i + 1)
	case 2:
		f := func() { t.step(i + 1) }
		f()
	case 3:
		f := treeRecv{t}.method // a method value: a wrapper frame
		f(i + 1)
	case 4:
		func() {
			defer func() { t.step(i + 1) }()
		}()
	case 5:
		done := make(chan struct{})
		go func() {
			defer close(done)
			t.step(i + 1)
		}()
		<-done
	case 6:
		var big [1 << 13]uintptr // a large frame
		big[i%len(big)] = uintptr(i)
		t.step(i + 1 + int(big[0]&0))
	case 7:
		func() {
			defer func() {
				recover()
				t.step(i + 1) // during a panic's deferred calls
			}()
			panic("unwind")
		}()
	}
}

// TestFramePointerRandomTrees compares both unwinders at the leaves of
// random call paths mixing direct and inlined calls, closures, method
// values, deferred calls, goroutines, large frames and panics.
func TestFramePointerRandomTrees(t *testing.T) {
	if !useFP {
		t.Skip("frame-pointer unwinding is off")
	}
	rng := rand.New(rand.NewSource(1))
	for k := 0; k < 300; k++ {
		tr := &randomPath{steps: make([]byte, rng.Intn(40))}
		for i := range tr.steps {
			tr.steps[i] = byte(rng.Intn(8))
		}
		tr.step(0)
		if len(tr.fp) != len(tr.cal) {
			t.Fatalf("path %v: %d frames by frame pointers, %d by runtime.Callers:\n%v\n%v", tr.steps, len(tr.fp), len(tr.cal), tr.fp, tr.cal)
		}
		for i := 1; i < len(tr.fp); i++ {
			if tr.fp[i] != tr.cal[i] {
				t.Fatalf("path %v: frame %d: %s by frame pointers, %s by runtime.Callers", tr.steps, i, tr.fp[i], tr.cal[i])
			}
		}
	}
}

// TestFPMoreContinuesWalk checks that a walk of a few frames continued
// by fpMore (anchor.go's nearest anchors first) holds what one walk of
// all the frames holds, where the chain goes on and where it ends, and
// that it stops where it was once the stack moved.
func TestFPMoreContinuesWalk(t *testing.T) {
	if !fpSupported {
		t.Skip("no frame-pointer unwinding on this architecture")
	}
	check := func(name string) {
		var all, part [64]uintptr
		var allFP, partFP [65]uintptr
		n := fpCallers(all[:], nil, allFP[:])
		k := fpCallers(part[:3], nil, partFP[:4])
		m := fpMore(part[:], partFP[:], k, uintptr(unsafe.Pointer(&part[0])))
		// pcs[0] returns to this function from each call: they differ.
		if all[0], part[0] = 0, 0; m != n || all != part || allFP != partFP {
			// Copies: the arrays must stay on the stack they walk.
			t.Errorf("%s: one walk took %d frames %x, the walk continued %d %x", name, n, append([]uintptr(nil), all[:n]...), m, append([]uintptr(nil), part[:m]...))
		}
		if n < 3 {
			t.Errorf("%s: %d frames", name, n)
		}
		if got := fpMore(part[:], partFP[:], 3, 1); got != 3 {
			t.Errorf("%s: a walk from a stack that moved went on to %d frames", name, got)
		}
	}
	atDepth(80, func() { check("a chain longer than the walk") })
	done := make(chan struct{})
	go func() {
		defer close(done)
		atDepth(6, func() { check("a chain shorter than the walk") })
	}()
	<-done
}
