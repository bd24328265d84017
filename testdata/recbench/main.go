// Command recbench is the benchmark program of suncat's recording cost
// (BENCH.md, "Recording cost"; run.sh times it plain and instrumented):
// 8 workers each render a deep tree of nodes, recursively, reading every
// node's text through getters, about 10^6 getter calls in all. It prints
// a checksum, so the plain and the instrumented build can be checked to
// do the same work.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"sync"
)

// A Node is one element of a document tree.
type Node struct {
	kind     string
	text     string
	children []*Node
}

// Kind returns the node's kind.
func (n *Node) Kind() string { return n.kind }

// Text returns the node's text.
func (n *Node) Text() string { return n.text }

var kinds = []string{"section", "para", "list", "item", "quote", "code", "table", "cell"}

// build makes a tree of n nodes whose depth reaches about depth levels:
// each new node hangs under one of the last few nodes made, so the tree
// is deep and narrow, like a document of nested sections and lists.
func build(seed uint32, n, depth int) *Node {
	root := &Node{kind: "doc", text: "root"}
	path := []*Node{root}
	for i := 0; i < n; i++ {
		seed = seed*1664525 + 1013904223
		up := int(seed>>24) % 3 // 0: go deeper, 1-2: a sibling or an uncle
		if up > 0 && len(path) > 1 {
			path = path[:len(path)-1]
			if up == 2 && len(path) > 1 {
				path = path[:len(path)-1]
			}
		}
		if len(path) >= depth {
			path = path[:depth/2]
		}
		c := &Node{kind: kinds[int(seed>>16)%len(kinds)], text: fmt.Sprintf("node %d of %d", i, seed%97)}
		parent := path[len(path)-1]
		parent.children = append(parent.children, c)
		path = append(path, c)
	}
	return root
}

// render writes the subtree of n, indented by its depth.
func render(w *strings.Builder, n *Node, level int) {
	w.WriteString(strings.Repeat(" ", level))
	w.WriteString(n.Kind())
	w.WriteString(": ")
	w.WriteString(n.Text())
	w.WriteByte('\n')
	renderChildren(w, n.children, level+1)
}

func renderChildren(w *strings.Builder, children []*Node, level int) {
	for _, c := range children {
		render(w, c, level)
	}
}

func main() {
	workers := flag.Int("workers", 8, "parallel workers")
	nodes := flag.Int("nodes", 5000, "nodes per worker's tree")
	passes := flag.Int("passes", 12, "renderings of each tree")
	depth := flag.Int("depth", 24, "deepest tree level")
	flag.Parse()
	sums := make([]uint64, *workers)
	var wg sync.WaitGroup
	for i := 0; i < *workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tree := build(uint32(i+1), *nodes, *depth)
			h := fnv.New64a()
			for p := 0; p < *passes; p++ {
				var w strings.Builder
				render(&w, tree, 0)
				h.Write([]byte(w.String()))
			}
			sums[i] = h.Sum64()
		}(i)
	}
	wg.Wait()
	var sum uint64
	for _, s := range sums {
		sum ^= s
	}
	fmt.Fprintf(os.Stdout, "checksum %x, %d getter calls\n", sum, 2*(*workers)*(*nodes+1)*(*passes))
}
