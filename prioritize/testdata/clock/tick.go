// tick N: N units of work in main (1 ms a 1,000), while 4 background
// tickers (50 ms) start 0, 250, 500 and 750 ms after the start.
package main

import (
	"os"
	"strconv"
	"time"
)

type state struct{ level, work int }

var bgs [4]state

func compactor(w int, done chan struct{}) {
	time.Sleep(time.Duration(250*w) * time.Millisecond)
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			s := &bgs[w]
			for l := 0; l < 7; l++ {
				s.work += s.level + l
			}
		case <-done:
			return
		}
	}
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go compactor(w, done)
	}
	s := &state{}
	for i := 0; i < n; i++ {
		s.work += s.level
		if i%1000 == 999 {
			time.Sleep(time.Millisecond)
		}
	}
	close(done)
}
