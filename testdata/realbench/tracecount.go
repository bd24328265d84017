//go:build ignore

// tracecount prints how many events, marks and stacks a suncat trace
// holds, streaming it (tracefile.DecodeFunc): repeat records are expanded
// into the events they count, and no event is kept. Used by run.sh:
//
//	go run tracecount.go TRACE
package main

import (
	"fmt"
	"os"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run tracecount.go TRACE")
		os.Exit(2)
	}
	f, err := tracefile.Load(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracecount:", err)
		os.Exit(1)
	}
	events, marks := 0, 0
	tr, err := f.DecodeFunc(func(ev *tracefile.Event, mk *tracefile.Marker) error {
		if ev != nil {
			events++
		} else {
			marks++
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracecount:", err)
		os.Exit(1)
	}
	fmt.Printf("%d events, %d marks, %d stacks", events, marks, len(tr.Stacks))
	if p := tr.Problem(); p != "" {
		fmt.Printf(" (%s)", p)
	}
	fmt.Println()
}
