//go:build ignore

// tracebytes prints the bytes a suncat trace file holds in records: the
// file is a whole number of chunks, each filled from its start, so the
// written part of a chunk ends at its last non-zero byte (rounded up to
// the 4-byte record alignment; padding records are mostly zeros and do
// not count). Reads trace versions 1 to 3 (the chunk size is at offset 16
// of the header in each). Used by run.sh:
//
//	go run tracebytes.go TRACE
package main

import (
	"encoding/binary"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run tracebytes.go TRACE")
		os.Exit(2)
	}
	n, err := written(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracebytes:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

func written(name string) (int64, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	if len(b) < 20 || string(b[:8]) != "SUNCATTR" {
		return 0, fmt.Errorf("%s: not a suncat trace", name)
	}
	size := int(binary.LittleEndian.Uint32(b[16:20]))
	if size <= 0 {
		return 0, fmt.Errorf("%s: chunk size %d", name, size)
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
	return total, nil
}
