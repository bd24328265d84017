package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"

	"github.com/suncat-go/suncat/internal/testtrace"
)

// TestHeaderReadOnce: a command reads each trace's header once
// (tracefile.Load; traceFiles checks a directory's traces for records
// with what it read) and opens the file again only to decode it. The
// opens are counted by the kernel (inotify), so that a second read of a
// header, through whatever function, shows: before, summary opened a
// named trace 3 times (ReadHeader, Load, the decoding), a trace in a
// directory 4 (HoldsRecords too), and diff a named trace 4 (firstByte,
// to tell a summary -json file, too).
func TestHeaderReadOnce(t *testing.T) {
	files := testtrace.Copies(t, 2, recorded...)
	dir := filepath.Dir(files[0])
	one := testtrace.Copies(t, 1, recorded[1])
	for _, c := range []struct {
		args    []string
		opened  []string
		decodes int // decodings of each file
	}{
		{[]string{"summary", dir}, files, 1},
		{[]string{"summary", files[1], files[3]}, []string{files[1], files[3]}, 1},
		{[]string{"view", dir}, files, 1}, // not a terminal: the text summary
		{[]string{"events", filepath.Dir(one[0])}, one, 2},
		{[]string{"diff", files[0], files[1]}, []string{files[0], files[1]}, 1}, // loadRun
	} {
		opens := countOpens(t, filepath.Dir(c.opened[0]), func() {
			var out, errb bytes.Buffer
			if err := run(&out, &errb, c.args); err != nil {
				t.Fatalf("%v: %v\n%s", c.args, err, errb.String())
			}
		})
		for _, f := range c.opened {
			if got, want := opens[filepath.Base(f)], 1+c.decodes; got != want {
				t.Errorf("%v: %s opened %d times, want %d (its header once, then %d per decoding)", c.args, filepath.Base(f), got, want, 1)
			}
		}
	}
}

// countOpens runs fn and returns how many times each file in dir was
// opened meanwhile. Each open is followed by its close before the next
// one, so that the kernel does not fold two opens into one event.
func countOpens(t *testing.T, dir string, fn func()) map[string]int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_OPEN|syscall.IN_CLOSE_NOWRITE|syscall.IN_CLOSE_WRITE); err != nil {
		t.Skipf("inotify on %s: %v", dir, err)
	}
	fn()
	opens := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if errors.Is(err, syscall.EAGAIN) {
			return opens
		}
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
			if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
				t.Fatal("inotify: queue overflow")
			}
			if ev.Mask&syscall.IN_OPEN != 0 {
				opens[string(bytes.TrimRight(name, "\x00"))]++
			}
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}
