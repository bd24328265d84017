package main

import (
	"time"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// box is read by idle.
type box struct{ a, b int }

// idle repeats an action n times, 80 ms apart, in one goroutine: five
// turns of a loop reading two fields through the function's frame cache,
// the same values every time (batches and runs of repeats). Each
// action's reads must take their own times, after the pause, so that
// suncat summary -split idle=40ms sees n sub-traces (TestIdleTimes).
func idle(n int) {
	logrt.SetGetters([]tracefile.Getter{
		{ID: 1, Package: "main", Receiver: "*stop", Method: "Name", File: "main.go", Line: 25, Field: "name"},
		{ID: 2, Package: "main", Receiver: "box", Method: "a", File: "idle.go", Field: "read:a"},
		{ID: 3, Package: "main", Receiver: "box", Method: "b", File: "idle.go", Field: "read:b"},
	})
	x := &box{a: 1, b: 2}
	for r := 0; r < n; r++ {
		time.Sleep(80 * time.Millisecond)
		idleAction(x)
	}
}

//go:noinline
func idleAction(x *box) int {
	var f logrt.FrameCache
	s := 0
	for i := 0; i < 5; i++ {
		s += logrt.ReadIntF(&f, 0, 2, x.a)
		s += logrt.ReadIntF(&f, 1, 3, x.b)
	}
	return s
}
