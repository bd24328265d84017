// Package together runs a function in several goroutines at once, for
// logrt's concurrency tests and its test program (logrt/internal/exitprog),
// which record from many goroutines. It imports only the standard library
// and is never compiled into instrumented programs.
package together
