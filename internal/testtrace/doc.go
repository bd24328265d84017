// Package testtrace makes big traces for benchmarks: it records them with
// logrt's test program (logrt/internal/exitprog; Loops, Shared), or
// writes them record by record in memory (Synth), for sizes no test
// program reaches quickly; it copies recorded traces into a directory,
// several of each (Copies); and it samples the heap's peak for the
// memory benchmarks (HeapPeak, HeapObjects). It is for tests and benchmarks
// only.
//
// It imports only the standard library and logrt/tracefmt (the format's
// definitions), and must not be imported by anything but tests and
// benchmarks: the benchmarks of logrt/tracefile, prioritize,
// prioritize/stream, tui and cmd/suncat, and the tests of
// prioritize/stream and cmd/suncat (Copies; cmd/suncat's report test
// writes two suites with Synth), call it. It builds and runs logrt's
// test program rather than importing logrt.
package testtrace
