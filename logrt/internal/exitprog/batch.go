//go:build !windows && !plan9

package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// The getters of the reads that batch records (ids 2 to 9).
var batchGetters = []tracefile.Getter{
	{ID: 2, Package: "main", Receiver: "*item", Method: "name", File: "batch.go", Field: "read:name"},
	{ID: 3, Package: "main", Receiver: "*item", Method: "n", File: "batch.go", Field: "read:n"},
	{ID: 4, Package: "main", Receiver: "*item", Method: "u", File: "batch.go", Field: "read:u"},
	{ID: 5, Package: "main", Receiver: "*item", Method: "ok", File: "batch.go", Field: "read:ok"},
	{ID: 6, Package: "main", Receiver: "*item", Method: "xs", File: "batch.go", Field: "read:xs"},
	{ID: 7, Package: "main", Receiver: "*item", Method: "m", File: "batch.go", Field: "read:m"},
	{ID: 8, Package: "main", Receiver: "*item", Method: "arr", File: "batch.go", Field: "read:arr"},
	{ID: 9, Package: "main", Receiver: "*item", Method: "i8", File: "batch.go", Field: "read:i8"},
}

type item struct {
	name string
	n    int
	u    uint64
	ok   bool
	xs   []int
	m    map[int]int
	arr  [3]int
	i8   int8
}

// A batchLog prints, for each read, its goroutine, the key of the
// read's stack as runtime.Callers sees it and the value as the trace
// spells it, unless quiet (reads made while recording is paused).
type batchLog struct {
	g     int
	quiet bool
	lines []string
}

//go:noinline
func (l *batchLog) note(v string) {
	if l.quiet {
		return
	}
	var pcs [200]uintptr
	n := runtime.Callers(3, pcs[:]) // the caller of the note's caller: the read's line
	l.lines = append(l.lines, strconv.Itoa(l.g)+" "+tracefile.StackKey(runtime.CallersFrames(pcs[:n]))+" "+v)
}

// The notes of each kind of value, which return it.

//go:noinline
func (l *batchLog) s(v string) string { l.note(v); return v }

//go:noinline
func (l *batchLog) i(v int) int { l.note(strconv.Itoa(v)); return v }

//go:noinline
func (l *batchLog) i8(v int8) int8 { l.note(strconv.Itoa(int(v))); return v }

//go:noinline
func (l *batchLog) u(v uint64) uint64 { l.note(strconv.FormatUint(v, 10)); return v }

//go:noinline
func (l *batchLog) b(v bool) bool { l.note(strconv.FormatBool(v)); return v }

// noteLen notes "len k" for v, a slice, map or array of length k.
//
//go:noinline
func noteLen[T any](l *batchLog, v T, k int) T { l.note("len " + strconv.Itoa(k)); return v }

// readAll reads every field of it, each read on one line with its note
// (the note's caller, the line of the read, is the key's first frame).
//
//go:noinline
func readAll(l *batchLog, it *item) int {
	sum := 0
	sum += len(logrt.ReadString(2, l.s(it.name)))
	sum += logrt.ReadInt(3, l.i(it.n))
	sum += int(logrt.ReadUint(4, l.u(it.u)))
	if logrt.ReadBool(5, l.b(it.ok)) {
		sum++
	}
	sum += len(logrt.ReadSlice(6, noteLen(l, it.xs, len(it.xs))))
	sum += len(logrt.ReadMap(7, noteLen(l, it.m, len(it.m))))
	sum += logrt.ReadArray(8, noteLen(l, it.arr, 3), 3)[0]
	sum += int(logrt.ReadInt(9, l.i8(it.i8)))
	return sum
}

// readSome reads a few fields again from another line, in a loop (runs
// of one site, and of one value).
//
//go:noinline
func readSome(l *batchLog, it *item, k int) int {
	sum := 0
	for j := 0; j < k; j++ {
		sum += logrt.ReadInt(3, l.i(it.n))
		if logrt.ReadBool(5, l.b(it.ok)) {
			sum++
		}
	}
	return sum
}

// batchItems makes the items that g reads: values that repeat, grow,
// and are large or negative.
func batchItems(g int) []*item {
	its := make([]*item, 7)
	for i := range its {
		its[i] = &item{
			name: "g" + strconv.Itoa(g) + " item " + strconv.Itoa(i%3),
			n:    (i - 3) * (1 + g*1000),
			u:    uint64(i) << (9 * i),
			ok:   i%2 == 0,
			xs:   make([]int, i),
			m:    map[int]int{},
			i8:   int8(-i * 20),
		}
		for k := 0; k < i%4; k++ {
			its[i].m[k] = k
		}
	}
	its[6].u = 1<<64 - 1 // no literal holds it: a string
	its[5].n = -1 << 62
	return its
}

// batchLoop reads the items of l's goroutine n times; with marks, it
// also marks, pauses and resumes now and then, and notes them.
func batchLoop(l *batchLog, n int, marks bool) {
	its := batchItems(l.g)
	for i := 0; i < n; i++ {
		it := its[i%len(its)]
		if i%5 == 4 {
			it.n++ // a value that changes between runs of reads
			it.xs = append(it.xs, i)
		}
		readAll(l, it)
		readSome(l, it, i%4)
		switch {
		case !marks:
		case i%53 == 7:
			logrt.Mark("m" + strconv.Itoa(i))
			l.lines = append(l.lines, "mark m"+strconv.Itoa(i))
		case i%71 == 9:
			logrt.Pause()
			l.lines = append(l.lines, "pause")
			l.quiet = true
			readAll(l, it)
			l.quiet = false
			logrt.Resume()
			l.lines = append(l.lines, "resume")
		}
	}
}

// The goroutines of batch, each from a function of its own, so that the
// stacks of their reads tell them apart.
//
//go:noinline
func batchG0(l *batchLog, n int) { batchLoop(l, n, false) }

//go:noinline
func batchG1(l *batchLog, n int) { batchLoop(l, n, false) }

//go:noinline
func batchG2(l *batchLog, n int) { batchLoop(l, n, false) }

//go:noinline
func batchG3(l *batchLog, n int) { batchLoop(l, n, false) }

// batch records reads of fields of every kind (a string, signed and
// unsigned integers, a boolean, a slice's, a map's and an array's
// lengths) from two sites: with goroutines 0, in the main goroutine
// alone, with marks, pauses and resumes; else in that many goroutines
// (at most 4) at once, which move between Ps. It prints each read's
// note (batchLog), the main goroutine's marks, pauses and resumes in
// their place, goroutine after goroutine.
func batch(n, goroutines int) {
	logrt.SetGetters(append([]tracefile.Getter{{ID: 1, Package: "main", Receiver: "*stop", Method: "Name", Field: "name"}}, batchGetters...))
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if goroutines == 0 {
		l := &batchLog{}
		batchLoop(l, n, true)
		for _, s := range l.lines {
			fmt.Fprintln(out, s)
		}
		return
	}
	fns := []func(*batchLog, int){batchG0, batchG1, batchG2, batchG3}
	logs := make([]*batchLog, goroutines)
	var wg sync.WaitGroup
	for g := range logs {
		logs[g] = &batchLog{g: g}
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			fns[g](logs[g], n)
		}(g)
	}
	wg.Wait()
	for _, l := range logs {
		for _, s := range l.lines {
			fmt.Fprintln(out, s)
		}
	}
}
