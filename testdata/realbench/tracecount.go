//go:build ignore

// tracecount prints what a suncat trace holds. By default: how many
// events, marks and stacks, streaming it (tracefile's File.Count): repeat
// records are expanded into the events they count, and no event is kept.
// With -bytes: the bytes the file holds in records. The file is a whole
// number of chunks, each filled from its start, so the written part of a
// chunk ends at its last non-zero byte (rounded up to the 4-byte record
// alignment; padding records are mostly zeros and do not count). It reads
// trace versions 1 to 5 (the chunk size is at offset 16 of the header in
// each). With -kinds: the records and bytes of each record kind, and how
// the entries of batch records (version 5 and later) spend their bytes.
// Used by run.sh:
//
//	go run tracecount.go [-bytes|-kinds] TRACE
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

func main() {
	bytes := flag.Bool("bytes", false, "print the bytes the trace holds in records")
	kinds := flag.Bool("kinds", false, "print the records and bytes of each record kind")
	flag.Parse()
	if flag.NArg() != 1 || *bytes && *kinds {
		fmt.Fprintln(os.Stderr, "usage: go run tracecount.go [-bytes|-kinds] TRACE")
		os.Exit(2)
	}
	count := counts
	if *bytes {
		count = written
	} else if *kinds {
		count = byKind
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
	b, size, err := chunked(name)
	if err != nil {
		return "", err
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

// chunked reads the trace at name, and returns it and its chunk size.
func chunked(name string) ([]byte, int, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, 0, err
	}
	if len(b) < 20 || string(b[:8]) != "SUNCATTR" {
		return nil, 0, fmt.Errorf("%s: not a suncat trace", name)
	}
	size := int(binary.LittleEndian.Uint32(b[16:20]))
	if size <= 0 {
		return nil, 0, fmt.Errorf("%s: chunk size %d", name, size)
	}
	return b, size, nil
}

// kindCount is what byKind counts: records and bytes by kind, and the
// bytes of batch entries by part (tracefmt, RecBatch).
type kindCount struct {
	records, bytes                        map[int]int
	entries, heads, getters, values, lits int
	plusOnes                              int // entries of value kind 3 (version 7)
}

// byKind says how many records of each kind the trace at name holds,
// and in how many bytes (commit word and padding included).
func byKind(name string) (string, error) {
	b, size, err := chunked(name)
	if err != nil {
		return "", err
	}
	c := kindCount{records: map[int]int{}, bytes: map[int]int{}}
	for start := 0; start < len(b); start += size {
		off := start
		if start == 0 {
			off = tracefmt.HeaderSize
		}
		end := min(start+size, len(b))
		for off+4 <= end {
			word := binary.LittleEndian.Uint32(b[off:])
			if word == 0 {
				break
			}
			kind, n := int(word&0xff), int(word>>8)
			if off+4+n > end {
				return "", fmt.Errorf("%s: offset %d: a record past its chunk", name, off)
			}
			c.records[kind]++
			c.bytes[kind] += (4 + n + 3) &^ 3
			if kind == tracefmt.RecBatch {
				c.batch(b[off+4 : off+4+n])
			}
			off += (4 + n + 3) &^ 3
		}
	}
	return c.String(), nil
}

// batch counts the entries of a batch record's payload p.
func (c *kindCount) batch(p []byte) {
	if len(p) < 4 {
		return
	}
	used := int(binary.LittleEndian.Uint32(p))
	p = p[4:min(4+used, len(p))]
	_, k := binary.Uvarint(p) // the time delta
	for k > 0 && k < len(p) {
		head, m := binary.Uvarint(p[k:])
		if m <= 0 {
			return
		}
		c.entries++
		c.heads += m
		k += m
		if head&4 != 0 {
			_, m = binary.Uvarint(p[k:])
			c.getters += m
			k += m
		}
		if v := head & 3; v == 1 || v == 2 {
			_, m = binary.Uvarint(p[k:])
			c.values += m
			k += m
			if v == 2 {
				c.lits++
			}
		} else if v == 3 {
			c.plusOnes++
		}
	}
}

func (c kindCount) String() string {
	var kinds []int
	total := 0
	for k, n := range c.bytes {
		kinds = append(kinds, k)
		total += n
	}
	sort.Ints(kinds)
	var out strings.Builder
	fmt.Fprintf(&out, "%d bytes in records\n", total)
	for _, k := range kinds {
		fmt.Fprintf(&out, "kind %3d: %9d records %11d bytes\n", k, c.records[k], c.bytes[k])
	}
	fmt.Fprintf(&out, "batch entries: %d in %d bytes: heads %d, getters %d, values %d (%d literals; %d more integers the previous plus one, in no bytes)",
		c.entries, c.heads+c.getters+c.values, c.heads, c.getters, c.values, c.lits, c.plusOnes)
	return out.String()
}
