// Package testhook names the sub-traces of instrumented tests. 'suncat
// test' rewrites a copy of each test file (never the file itself) so that
// every test, benchmark and fuzz test (and each fuzz input) calls Start
// first, every example and TestMain calls Label, m.Run in TestMain goes
// through MainRun, and every call of (*testing.T).Run, (*testing.B).Run,
// (*testing.T).Parallel and Cleanup on a test's parameter goes through
// Run, RunB, Parallel and Cleanup here. Each of them labels
// what runs from then on with the test's full name (logrt.Label): the
// trace gets one sub-trace per test and subtest that calls a getter, and
// the events of a parent test between its subtests are labelled with the
// parent's name again.
//
// Tests running in parallel interleave their events; 'suncat test' runs
// them one at a time (-parallel 1) unless told otherwise.
//
// The package is compiled into instrumented test binaries only, from
// testhook.go, with the runtime's import path replaced by the one the build
// gives it; it must import nothing but testing and the runtime.
//
// Called by: the rewritten copies of test files (the fallback of suncat
// test, -labels rewrite); the module's root package embeds testhook.go
// (suncat.TestHook) and instrument compiles it as the overlay-only
// package <module>/suncatrt/testhook.
package testhook
