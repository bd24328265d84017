// Package testtrace records big traces for benchmarks, with logrt's test
// program (logrt/internal/exitprog): it is for tests and benchmarks only.
//
// It imports only the standard library and must not be imported by
// anything but tests and benchmarks: the benchmarks of prioritize, tui and
// cmd/suncat call it (Loops, Shared). It builds and runs logrt's test program
// rather than importing logrt.
package testtrace
