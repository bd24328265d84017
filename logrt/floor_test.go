package logrt

import (
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkRecordingFloor splits the recording cost of testdata/recbench
// (BENCH.md) into its parts, in one process: the same work (8 workers each
// build a deep tree of 5,000 nodes and render it 12 times, recursively,
// through two getters: 960,192 getter calls) runs with getters that
//
//	plain: return the value
//	walk:  take the shard and walk the stack, as an event does, and stop
//	clock: also read the clock, as an event does, and stop
//	event: record the event (String)
//
// The four alternate, in an order that turns from round to round (b.N
// rounds), and it reports the median time of each over plain's: what the
// stack walk alone costs, what the clock adds, and what the rest of the
// writer adds.
//
//	go test -run '^$' -bench RecordingFloor -benchtime 15x ./logrt
func BenchmarkRecordingFloor(b *testing.B) {
	setupBenchTrace(b)
	String(1, "warm") // open the trace
	modes := []string{"plain", "walk", "clock", "event"}
	times := make([][]float64, len(modes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range modes {
			m := (k + i) % len(modes)
			floorMode = m
			start := time.Now()
			floorRun(8, 5000, 12, 24)
			times[m] = append(times[m], time.Since(start).Seconds())
		}
	}
	b.StopTimer()
	floorMode = 0
	plain := median(times[0])
	b.ReportMetric(plain*1e3, "plain-ms")
	for m := 1; m < len(modes); m++ {
		b.ReportMetric(median(times[m])/plain, "x-"+modes[m])
	}
}

// floorMode says what the getters of floorRun do (BenchmarkRecordingFloor).
var floorMode int

type floorNode struct {
	kind, text string
	children   []*floorNode
}

//go:noinline
func (n *floorNode) Kind() string { return floorGet(1, n.kind) }

//go:noinline
func (n *floorNode) Text() string { return floorGet(2, n.text) }

// floorGet stands where generated getters call String.
//
//go:noinline
func floorGet(id uint32, v string) string {
	switch floorMode {
	case 1, 2:
		if w.ready() {
			// What the walk and the clock give is kept in the shard, which
			// only its holder writes: a global sink, written by every
			// getter call on both cores, would cost more than the walk.
			s := w.lockShard()
			s.root = uintptr(fpCallers(s.pcs[:], nil, nil))
			if floorMode == 2 {
				s.root += uintptr(s.now())
			}
			s.release()
		}
		return v
	case 3:
		return String(id, v)
	}
	return v
}

// floorRun is testdata/recbench's main, and floorBuild and floorRender its
// build and render: a copy, as recbench is a module of its own, which a
// test cannot import. Keep the two alike.
func floorRun(workers, nodes, passes, depth int) uint64 {
	sums := make([]uint64, workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tree := floorBuild(uint32(i+1), nodes, depth)
			h := fnv.New64a()
			for p := 0; p < passes; p++ {
				var sb strings.Builder
				floorRender(&sb, tree, 0)
				h.Write([]byte(sb.String()))
			}
			sums[i] = h.Sum64()
		}(i)
	}
	wg.Wait()
	var sum uint64
	for _, s := range sums {
		sum ^= s
	}
	return sum
}

var floorKinds = []string{"section", "para", "list", "item", "quote", "code", "table", "cell"}

func floorBuild(seed uint32, n, depth int) *floorNode {
	root := &floorNode{kind: "doc", text: "root"}
	path := []*floorNode{root}
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		up := int(seed>>24) % 3
		if up > 0 && len(path) > 1 {
			path = path[:len(path)-1]
			if up == 2 && len(path) > 1 {
				path = path[:len(path)-1]
			}
		}
		if len(path) >= depth {
			path = path[:depth/2]
		}
		c := &floorNode{kind: floorKinds[int(seed>>16)%len(floorKinds)], text: fmt.Sprintf("node %d of %d", i, seed%97)}
		parent := path[len(path)-1]
		parent.children = append(parent.children, c)
		path = append(path, c)
	}
	return root
}

func floorRender(sb *strings.Builder, n *floorNode, level int) {
	sb.WriteString(strings.Repeat(" ", level))
	sb.WriteString(n.Kind())
	sb.WriteString(": ")
	sb.WriteString(n.Text())
	sb.WriteByte('\n')
	floorRenderChildren(sb, n.children, level+1)
}

func floorRenderChildren(sb *strings.Builder, children []*floorNode, level int) {
	for _, c := range children {
		floorRender(sb, c, level)
	}
}

// BenchmarkTraceMiB measures what a MiB of trace costs the writer beyond
// its records on this machine: growing the file and mapping a chunk
// (which faults its pages in, populate_linux.go, and unmaps the previous
// one), then the first write to each of its cache lines, as records reach
// them. On a virtual machine whose page tables the hypervisor shadows,
// the first write to each new page costs microseconds even after the
// pages were faulted in (BENCH.md).
//
// The file grows as the writer grows it: its space reserved and its
// pages written with zeros before they are faulted in (prefault, what the
// writer does), reserved only (reserve), or sparse (truncate).
//
//	go test -run '^$' -bench TraceMiB -benchtime 40x ./logrt
func BenchmarkTraceMiB(b *testing.B) {
	b.Run("prefault", func(b *testing.B) { benchTraceMiB(b, "prefault") })
	b.Run("reserve", func(b *testing.B) { benchTraceMiB(b, "reserve") })
	b.Run("truncate", func(b *testing.B) { benchTraceMiB(b, "truncate") })
}

func benchTraceMiB(b *testing.B, mode string) {
	f, err := os.CreateTemp(b.TempDir(), "chunks")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var mapping, touching time.Duration
	var chunk []byte
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if mode == "truncate" {
			err = f.Truncate(int64(i+1) * chunkSize)
		} else {
			err = reserveSpace(f, int64(i)*chunkSize, chunkSize)
		}
		if err != nil {
			b.Fatal(err)
		}
		if chunk != nil {
			unmapChunk(chunk)
		}
		if chunk, err = mapChunk(f, i); err != nil {
			b.Fatal(err)
		}
		if mode == "prefault" {
			prefault(f, i, chunk)
		} else {
			populate(chunk)
		}
		mid := time.Now()
		for j := 0; j < len(chunk); j += 64 {
			chunk[j] = 1
		}
		touching += time.Since(mid)
		mapping += mid.Sub(start)
	}
	b.ReportMetric(float64(mapping.Microseconds())/float64(b.N), "map-us/MiB")
	b.ReportMetric(float64(touching.Microseconds())/float64(b.N), "touch-us/MiB")
}
