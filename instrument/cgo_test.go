package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// cgoProg calls a getter from Go called back from C: from C called by Go,
// from a thread that C created, and (on amd64) with a junk frame pointer
// in the C frame, which a frame-pointer unwinder must not follow.
const cgoProg = `package main

/*
#cgo CFLAGS: -O2 -fomit-frame-pointer
#include <pthread.h>

extern void goStop(int);

static void callBack(int n) { for (int i = 0; i < n; i++) goStop(i); }

static void *threadMain(void *arg) { callBack((int)(long)arg); return 0; }

static void onCThread(int n) {
	pthread_t t;
	pthread_create(&t, 0, threadMain, (void *)(long)n);
	pthread_join(t, 0);
}

static void junkFramePointer(int n) {
#if defined(__x86_64__)
	for (int i = 0; i < n; i++) {
		__asm__ volatile("mov $0x10, %%rbp\n\tmov %0, %%edi\n\tcall goStop\n\t"
			: : "r"(i) : "rbp", "rdi", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory", "cc");
	}
#else
	callBack(n);
#endif
}
*/
import "C"

import "fmt"

type stop struct{ name string }

func (s *stop) Name() string { return s.name }

var stops = []*stop{{"Pike St"}, {"Pine St"}}

//export goStop
func goStop(i C.int) { fmt.Sprint(stops[int(i)%2].Name()) }

func main() {
	C.callBack(100)
	C.onCThread(100)
	C.junkFramePointer(100)
	fmt.Println(stops[0].Name())
}
`

// TestCgoCallbacks records getter calls made from Go that C called back
// into, with frame pointers (the default) and with runtime.Callers, and
// checks both traces have every event and the same Go frames below the
// boundary.
func TestCgoCallbacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a cgo program")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/cgoprog\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(cgoProg), 0o644)
	bin := filepath.Join(t.TempDir(), "cgoprog")
	if _, err := Build(context.Background(), BuildOptions{Options: Options{Dir: dir}, Output: bin}); err != nil {
		t.Fatal(err)
	}
	var traces [2]*tracefile.Trace
	for i, fp := range []string{"1", "0"} {
		out := t.TempDir()
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1", tracefmt.TraceEnv+"="+out+"/", "SUNCAT_CONTROL=off", "SUNCAT_FP="+fp)
		if o, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(o)) != "Pike St" {
			t.Fatalf("SUNCAT_FP=%s: %v\n%s", fp, err, o)
		}
		files, _ := filepath.Glob(filepath.Join(out, "*.suncat"))
		if len(files) != 1 {
			t.Fatalf("traces: %v", files)
		}
		tr, err := tracefile.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Events) != 301 {
			t.Fatalf("SUNCAT_FP=%s: %d events, want 301", fp, len(tr.Events))
		}
		traces[i] = tr
	}
	for k := 0; k < 300; k += 37 {
		a := goFrames(traces[0].StackOf(traces[0].Events[k].Stack))
		b := goFrames(traces[1].StackOf(traces[1].Events[k].Stack))
		if len(a) < 2 || a[1] != "main.goStop" || strings.Join(a, " ") != strings.Join(b[:len(a)], " ") {
			t.Errorf("event %d: frame pointers %v, runtime.Callers %v", k, a, b)
		}
	}
}

// goFrames lists a stack's functions up to the C boundary.
func goFrames(s *tracefile.Stack) []string {
	var fns []string
	for _, f := range s.Frames {
		if strings.HasPrefix(f.Func, "runtime.cgocallback") {
			break
		}
		fns = append(fns, f.Func)
	}
	return fns
}
