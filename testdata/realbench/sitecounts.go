//go:build ignore

// sitecounts compares the per-site counts of a suncat -reads trace with
// the counts of a go build -cover -covermode=count run of the same
// program on the same input (go tool covdata textfmt). A site is a field
// read at a line: the events of one getter table entry (a field) whose
// stack's second frame (the first is the recorder) is at that line. Each
// site is matched with the cover block that holds its line, where only
// one does (or all that do have the same count), and printed with its events, the block's count and a
// verdict: "=" (equal), "xK" (K times the count: K reads of the field on
// the line), or "<" / ">" (the read is evaluated apart from its
// statement: a condition of a for loop, the right of && or ||). The last
// lines sum the verdicts. Used by countcheck.sh:
//
//	go run sitecounts.go -module github.com/itchyny/gojq -src DIR TRACE COVER.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

type site struct {
	file  string // relative to the module's root
	line  int
	field string
}

type block struct {
	from, to int // lines
	count    int64
}

func main() {
	module := flag.String("module", "", "the module's path, as cover names its files")
	src := flag.String("src", "", "the directory of the module's sources, as the trace names them")
	flag.Parse()
	if flag.NArg() != 2 || *module == "" || *src == "" {
		fmt.Fprintln(os.Stderr, "usage: go run sitecounts.go -module PATH -src DIR TRACE COVER.txt")
		os.Exit(2)
	}
	sites, err := traceSites(flag.Arg(0), *src)
	if err == nil {
		var blocks map[string][]block
		if blocks, err = coverBlocks(flag.Arg(1), *module); err == nil {
			compare(sites, blocks)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sitecounts:", err)
		os.Exit(1)
	}
}

// traceSites counts the events of the trace by site, streaming it.
func traceSites(path, src string) (map[site]int64, error) {
	f, err := tracefile.Load(path)
	if err != nil {
		return nil, err
	}
	byStack := map[[2]uint32]int64{}
	tr, err := f.DecodeFunc(func(ev *tracefile.Event, mk *tracefile.Marker) error {
		if ev != nil {
			byStack[[2]uint32{ev.Getter, ev.Stack}]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sites := map[site]int64{}
	for k, n := range byStack {
		g, ok := tr.GetterOf(k[0])
		st := tr.StackOf(k[1])
		if !ok || st == nil || len(st.Frames) == 0 || g.EventKind() != "read" {
			continue
		}
		fr := st.Frames[0] // the reading function (trace version 6)
		if strings.Contains(fr.Func, "/suncatrt.") && len(st.Frames) > 1 {
			fr = st.Frames[1] // after the recorder's frame (version 5)
		}
		rel, err := filepath.Rel(src, fr.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		sites[site{rel, fr.Line, g.Receiver + "." + g.Method}] += n
	}
	return sites, nil
}

// coverBlocks reads go tool covdata textfmt output: the blocks of each
// file (relative to the module's root) and their counts.
func coverBlocks(path, module string) (map[string][]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	blocks := map[string][]block{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// file:l1.c1,l2.c2 stmts count
		line := sc.Text()
		colon := strings.LastIndexByte(line, ':')
		fs := strings.Fields(line[colon+1:])
		if colon < 0 || len(fs) != 3 || !strings.HasPrefix(line, module+"/") {
			continue
		}
		file := strings.TrimPrefix(line[:colon], module+"/")
		var l1, c1, l2, c2 int
		if _, err := fmt.Sscanf(fs[0], "%d.%d,%d.%d", &l1, &c1, &l2, &c2); err != nil {
			return nil, fmt.Errorf("%s: %q: %v", path, line, err)
		}
		n, _ := strconv.ParseInt(fs[2], 10, 64)
		blocks[file] = append(blocks[file], block{l1, l2, n})
	}
	return blocks, sc.Err()
}

func compare(sites map[site]int64, blocks map[string][]block) {
	var keys []site
	for s := range sites {
		keys = append(keys, s)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.field < b.field
	})
	verdicts := map[string]int{}
	var events, equal int64
	for _, s := range keys {
		n := sites[s]
		events += n
		var in []block
		for _, b := range blocks[s.file] {
			if b.from <= s.line && s.line <= b.to {
				if len(in) == 1 && in[0].count == b.count {
					continue // blocks of one count are one, here
				}
				in = append(in, b)
			}
		}
		v := "no block"
		var count int64 = -1
		switch {
		case len(in) > 1:
			v = "several blocks"
		case len(in) == 1:
			count = in[0].count
			switch {
			case n == count:
				v = "="
				equal += n
			case count > 0 && n > count && n%count == 0:
				v = "x" + strconv.FormatInt(n/count, 10)
			case n < count:
				v = "<"
			default:
				v = ">"
			}
		}
		verdicts[strings.TrimRightFunc(v, func(r rune) bool { return r >= '0' && r <= '9' })]++
		fmt.Printf("%s:%d %s %d %d %s\n", s.file, s.line, s.field, n, count, v)
	}
	fmt.Printf("sites %d, events %d; of them in sites equal to cover's count: %d events\n", len(keys), events, equal)
	var vs []string
	for v, k := range verdicts {
		vs = append(vs, fmt.Sprintf("%q %d", v, k))
	}
	sort.Strings(vs)
	fmt.Println("verdicts (sites):", strings.Join(vs, ", "))
}
