//go:build ignore

// tracecount prints what a suncat trace holds. By default: how many
// events, marks and stacks, streaming it (tracefile's File.Count): repeat
// records are expanded into the events they count, and no event is kept.
// With -bytes: the bytes the file holds in records. The file is a whole
// number of chunks, each filled from its start, so the written part of a
// chunk ends at its last non-zero byte (rounded up to the 4-byte record
// alignment; padding records are mostly zeros and do not count). It reads
// trace versions 1 to 5 (the chunk size is at offset 16 of the header in
// each). Used by run.sh:
//
//	go run tracecount.go [-bytes] TRACE
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

func main() {
	bytes := flag.Bool("bytes", false, "print the bytes the trace holds in records")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run tracecount.go [-bytes] TRACE")
		os.Exit(2)
	}
	count := counts
	if *bytes {
		count = written
	}
	out, err := count(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracecount:", err)
		os.Exit(1)
	}
	fmt.Println(out)
}

// counts says how many events, marks and stacks the trace at name holds.
func counts(name string) (string, error) {
	f, err := tracefile.Load(name)
	if err != nil {
		return "", err
	}
	tr, marks, err := f.Count()
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("%d events, %d marks, %d stacks", tr.EventsRead, marks, len(tr.Stacks))
	if p := tr.Problem(); p != "" {
		out += " (" + p + ")"
	}
	return out, nil
}

// written returns the bytes the trace at name holds in records.
func written(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	if len(b) < 20 || string(b[:8]) != "SUNCATTR" {
		return "", fmt.Errorf("%s: not a suncat trace", name)
	}
	size := int(binary.LittleEndian.Uint32(b[16:20]))
	if size <= 0 {
		return "", fmt.Errorf("%s: chunk size %d", name, size)
	}
	var total int64
	for start := 0; start < len(b); start += size {
		end := min(start+size, len(b))
		last := end - 1
		for last >= start && b[last] == 0 {
			last--
		}
		total += int64((last - start + 1 + 3) &^ 3)
	}
	return fmt.Sprint(total), nil
}
