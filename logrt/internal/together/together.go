package together

import "sync"

// Run runs f(0) to f(k-1), each in its own goroutine, at once, and waits
// for them all.
func Run(k int, f func(g int)) {
	var wg sync.WaitGroup
	for g := 0; g < k; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			f(g)
		}(g)
	}
	wg.Wait()
}
