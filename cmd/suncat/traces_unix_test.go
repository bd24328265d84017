//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSummarySkipsInDirectory: in a trace directory, a named pipe called
// *.suncat (which hung summary DIR, reading it), an empty file and a
// trace of only a header (which made summary DIR refuse the directory)
// are each skipped with a note, and the other traces summarized. Named
// on their own, the pipe is refused at once, with one line.
func TestSummarySkipsInDirectory(t *testing.T) {
	good, err := os.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.suncat"), good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty.suncat"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	head := append(append([]byte(nil), good[:512]...), make([]byte, 1<<20-512)...)
	if err := os.WriteFile(filepath.Join(dir, "head.suncat"), head, 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.suncat")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"summary", dir}); err != nil {
		t.Fatalf("summary DIR: %v\n%s", err, errb.String())
	}
	for _, want := range []string{
		"empty.suncat: no records (empty, or a header only), skipped",
		"head.suncat: no records (empty, or a header only), skipped",
		"pipe.suncat: not a regular file, skipped",
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
	if !strings.Contains(out.String(), "(*Stop).Name") {
		t.Errorf("the good trace was not summarized:\n%s", out.String())
	}
	for _, cmd := range []string{"summary", "events", "pprof", "check", "summary /dev/zero"} {
		args := []string{cmd, fifo}
		if cmd == "summary /dev/zero" {
			args = []string{"summary", "/dev/zero"} // grew without end
		}
		if cmd == "check" {
			args = []string{cmd, "-base", fifo, fifo}
		}
		errb.Reset()
		err := run(&out, &errb, args)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s on a named pipe: %v", cmd, err)
		}
	}
}

// TestSummarySkipsOthersTraces: in a folder, a trace that another user
// owns (planted in a shared folder such as /tmp/traces) is skipped with
// a note, not mixed into the summary; named, it is read. Making a file of
// another user needs root.
func TestSummarySkipsOthersTraces(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("a file of another user needs root to make")
	}
	good, err := os.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mine, theirs := filepath.Join(dir, "n10.suncat"), filepath.Join(dir, "n20.suncat")
	for _, p := range []string{mine, theirs} {
		if err := os.WriteFile(p, good, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(theirs, 54321, 54321); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"summary", dir}); err != nil {
		t.Fatalf("summary DIR: %v\n%s", err, errb.String())
	}
	if want := theirs + ": another user's file, skipped (name it to read it)"; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
	if strings.Contains(out.String(), "n20") {
		t.Errorf("the other user's trace was summarized:\n%s", out.String())
	}
	errb.Reset()
	if err := run(&out, &errb, []string{"summary", theirs}); err != nil || strings.Contains(errb.String(), "skipped") {
		t.Errorf("summary of the named file: %v %s", err, errb.String())
	}
}
