//go:build !windows && !plan9

// Command exitprog is a test program for logrt: it records events through
// a getter, like an instrumented program, and then ends in the way its
// first argument names, so tests can check that the trace survives.
//
//	exitprog MODE N
//
// MODE is return, exit, fatal, panic, sigint, sigterm, sigkill, marks
// (marks, pauses and resumes around the events, then return), or serve
// (record an event every 20ms until killed, for the control channel), or
// handled (N events, then wait for SIGINT, which the program handles
// itself, mark and return), loops (about N events of nested loops in four marked sub-traces), long
// (N calls returning the same 3003-byte value, then Flush), tree (N
// recursions of varying depth and path, each level's event valued with
// the key of its stack, tracefile.StackKey), or storm (four
// goroutines record distinct values "g<k> <i>" without end; "ready" is
// printed after N events, and the test kills the program mid-write), or
// turns (four goroutines take N turns each under a lock, recording "turn
// <k>" in turn k, then record "paused?" N times each while one of them
// pauses and resumes every 50 of its calls), or distinct (N distinct
// values "v<i>", then the first 1000 of them again, then the last 1000),
// or procs (four goroutines record N distinct values "g<k> <i>" each,
// GOMAXPROCS raised to 48 halfway, beyond the Ps' shards), or spread
// (48 goroutines at once record N distinct values "g<k> <i>" each), or churn
// (eight goroutines record N values "g<k> <i>" each while others change
// GOMAXPROCS between 1 and 8, Flush and set labels; churnpause also
// pauses and resumes), or far (reads whose call chains differ only far
// from the read) or frames (reads through frame caches, as the rewrite of
// -reads makes them; frames.go) or deep (reads through frame caches in a
// recursion deeper than the stacks a trace keeps; deep.go).
//
// It is a test program only, never copied into instrumented programs: it
// imports logrt (as generated code would), logrt/internal/together and
// logrt/tracefile. Called by: the tests of logrt and of cmd/suncat's
// control channel, which build and run it, and internal/testtrace, which
// records the benchmarks' big traces with it.
package main
