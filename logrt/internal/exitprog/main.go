//go:build !windows && !plan9

package main

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/internal/together"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

type stop struct{ name string }

//go:noinline
func (s *stop) Name() string { return logrt.String(1, s.name) }

// Keyed returns, through the getter, a hash of its own stack as
// runtime.Callers sees it (functions and lines), so tests can check the
// stack the trace recorded for the event.
//
//go:noinline
func (s *stop) Keyed() string { return logrt.String(1, stackKey()) }

func stackKey() string {
	var pcs [200]uintptr
	n := runtime.Callers(2, pcs[:])
	return tracefile.StackKey(runtime.CallersFrames(pcs[:n]))
}

// visit recurses depth levels, left or right by the bits of path, calling
// the getter at every level: stacks that rarely repeat exactly.
//
//go:noinline
func visit(s *stop, path uint32, depth int) {
	s.Keyed()
	if depth == 0 {
		return
	}
	if path&1 == 0 {
		left(s, path>>1|path<<31, depth-1)
	} else {
		right(s, path>>1|path<<31, depth-1)
	}
}

//go:noinline
func left(s *stop, path uint32, depth int) { visit(s, path, depth) }

//go:noinline
func right(s *stop, path uint32, depth int) { visit(s, path, depth) }

func main() {
	logrt.SetGetters([]tracefile.Getter{{ID: 1, Package: "main", Receiver: "*stop", Method: "Name", File: "main.go", Line: 25, Field: "name"}})
	mode := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	stops := []*stop{{"Pike St"}, {"Pine St"}, {"3rd Ave"}}
	if mode == "serve" {
		serve(stops)
		return
	}
	if mode == "loops" {
		loops(stops, n)
		return
	}
	if mode == "tree" {
		for i := 0; i < n; i++ {
			visit(stops[0], uint32(i)*2654435761, 5+i%40)
		}
		return
	}
	if mode == "distinct" {
		distinct(n)
		return
	}
	if mode == "far" {
		far(n)
		return
	}
	if mode == "frames" {
		frames(n)
		return
	}
	if mode == "end" { // n getter calls, then main returns: the instrumenter's deferred End
		defer logrt.End()
		for i := 0; i < n; i++ {
			stops[i%len(stops)].Name()
		}
		return
	}
	if mode == "idle" {
		idle(n)
		return
	}
	if mode == "deep" {
		deep(n)
		return
	}
	if strings.HasPrefix(mode, "batch") {
		g, _ := strconv.Atoi(strings.TrimPrefix(mode, "batch"))
		batch(n, g)
		return
	}
	if mode == "long" {
		long := &stop{"abc" + strings.Repeat("Straße ", 375)} // byte 1024 is inside an ß
		for i := 0; i < n; i++ {
			long.Name()
		}
		logrt.Flush()
		return
	}
	if mode == "turns" {
		turns(n)
		return
	}
	if mode == "procs" {
		procs(n)
		return
	}
	if mode == "spread" {
		together.Run(48, func(g int) {
			s := &stop{}
			for i := 0; i < n; i++ {
				s.name = "g" + strconv.Itoa(g) + " " + strconv.Itoa(i)
				s.Name()
			}
		})
		return
	}
	if mode == "churn" || mode == "churnpause" {
		churn(n, mode == "churnpause")
		return
	}
	if mode == "storm" {
		storm(n)
		return
	}
	if mode == "handled" {
		handled(stops, n)
		return
	}
	if mode == "marks" {
		marks(stops)
		return
	}
	if mode == "labels" {
		labels(stops)
		return
	}
	end(mode, stops, n)
}

// serve opens the trace (and the control socket), then records one
// event every 20ms until a signal stops the program.
func serve(stops []*stop) {
	stops[0].Name()
	for !strings.Contains(logrt.TracePath(), ".suncat") {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("ready", os.Getpid())
	for i := 0; ; i++ {
		time.Sleep(20 * time.Millisecond)
		stops[i%3].Name()
	}
}

// loops records about n events in four marked sub-traces of nested
// loops whose outer trip count grows with each sub-trace, from three call
// sites.
func loops(stops []*stop, n int) {
	per := n / 4
	for sub := 0; sub < 4; sub++ {
		logrt.Mark("sub" + strconv.Itoa(sub))
		for done := 0; done < per; {
			for o := 0; o < 2+sub && done < per; o++ {
				stops[0].Name()
				for i := 0; i < 3; i++ {
					stops[1].Name()
					stops[2].Name()
				}
				done += 7
			}
		}
	}
}

// storm records from four goroutines without end, and says "ready" once
// n events are in.
func storm(n int) {
	var total int64
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := &stop{}
			for i := 0; ; i++ {
				s.name = "g" + strconv.Itoa(g) + " " + strconv.Itoa(i)
				s.Name()
				atomic.AddInt64(&total, 1)
			}
		}(g)
	}
	for atomic.LoadInt64(&total) < int64(n) {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("ready")
	select {}
}

// handled records n events, then waits for a SIGINT that the program
// handles itself (logrt must leave it to it) and marks it.
func handled(stops []*stop, n int) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT)
	for i := 0; i < n; i++ {
		stops[i%len(stops)].Name()
	}
	fmt.Println("ready")
	<-c
	logrt.Mark("handled SIGINT")
}

// marks records three marked sub-traces, then one event while paused
// (not recorded) and one after resuming.
func marks(stops []*stop) {
	for i := 0; i < 3; i++ {
		logrt.Mark("sub" + strconv.Itoa(i))
		for j := 0; j <= i; j++ {
			stops[0].Name()
		}
	}
	logrt.Pause()
	stops[1].Name() // not recorded
	logrt.Resume()
	stops[2].Name()
}

// labels records events under the labels of tests (logrt.Label),
// pending, replaced and dropped as the comments say.
func labels(stops []*stop) {
	logrt.Label("T")       // replaced before any event: no mark
	logrt.Label("T/a")     // written before the next event
	stops[0].Name()        // T/a
	logrt.Label("T")       // dropped by the Mark that follows
	logrt.Mark("explicit") // written at once
	stops[1].Name()
	logrt.Label("T/b")
	logrt.Pause()
	stops[1].Name() // not recorded: the label stays pending
	logrt.Resume()
	logrt.Label("T/c")
	stops[2].Name()
	stops[2].Name()
	logrt.Label("T/d") // no event follows: no mark
}

// turns runs the turns mode.
func turns(n int) {
	var mu sync.Mutex
	next := 0
	together.Run(4, func(g int) {
		s := &stop{}
		for i := 0; i < n; i++ {
			mu.Lock()
			s.name = "turn " + strconv.Itoa(next)
			next++
			s.Name()
			mu.Unlock()
		}
	})
	together.Run(4, func(g int) {
		s := &stop{"paused?"}
		for i := 0; i < n; i++ {
			if g == 0 && i%50 == 0 {
				logrt.Pause()
				logrt.Resume()
			}
			s.Name()
		}
	})
}

// distinct records n distinct values, then the first 1000 and the last
// 1000 of them again.
func distinct(n int) {
	s := &stop{}
	value := func(i int) {
		s.name = "v" + strconv.Itoa(i)
		s.Name()
	}
	for i := 0; i < n; i++ {
		value(i)
	}
	for i := 0; i < 1000; i++ {
		value(i)
	}
	for i := n - 1000; i < n; i++ {
		value(i)
	}
}

// procs runs the procs mode.
func procs(n int) {
	half := func(from, to int) {
		together.Run(4, func(g int) {
			s := &stop{}
			for i := from; i < to; i++ {
				s.name = "g" + strconv.Itoa(g) + " " + strconv.Itoa(i)
				s.Name()
			}
		})
	}
	half(0, n/2)
	runtime.GOMAXPROCS(48)
	half(n/2, n)
}

// churn runs the churn modes.
func churn(n int, pause bool) {
	var done int32
	var aux sync.WaitGroup
	loop := func(f func(i int)) {
		aux.Add(1)
		go func() {
			defer aux.Done()
			for i := 0; atomic.LoadInt32(&done) == 0; i++ {
				f(i)
			}
		}()
	}
	loop(func(i int) {
		runtime.GOMAXPROCS(1 + i%8)
		time.Sleep(time.Duration(i%3) * time.Millisecond)
	})
	loop(func(int) {
		logrt.Flush()
		time.Sleep(time.Millisecond)
	})
	loop(func(i int) {
		logrt.Label("L" + strconv.Itoa(i))
		if pause && i%10 == 0 {
			logrt.Pause()
			logrt.Resume()
		}
		time.Sleep(100 * time.Microsecond)
	})
	together.Run(8, func(g int) {
		s := &stop{}
		for i := 0; i < n; i++ {
			s.name = "g" + strconv.Itoa(g) + " " + strconv.Itoa(i)
			s.Name()
		}
	})
	atomic.StoreInt32(&done, 1)
	aux.Wait()
}

// end records n events, then ends as mode says: it returns, exits,
// fails, panics or sends itself a signal.
func end(mode string, stops []*stop, n int) {
	for i := 0; i < n; i++ {
		stops[i%len(stops)].Name()
	}
	fmt.Println("recorded", n)
	switch mode {
	case "return":
		return
	case "exit":
		os.Exit(3)
	case "fatal":
		log.Fatal("fatal after events")
	case "panic":
		panic("unhandled")
	case "sigint", "sigterm", "sigkill":
		sig := map[string]syscall.Signal{"sigint": syscall.SIGINT, "sigterm": syscall.SIGTERM, "sigkill": syscall.SIGKILL}[mode]
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(10 * time.Second)
	}
}
