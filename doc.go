// Package suncat holds the sources that suncat compiles into other
// people's programs: the runtime (logrt, with logrt/tracefmt) and the test
// hooks (logrt/testhook), embedded as files (Runtime, TestHook).
//
// It exists, at the module's root, because a //go:embed pattern cannot
// leave its package's directory, and the embedding must not be in the
// runtime's own package: that would make suncat import logrt, and so run
// the runtime's start-up (clock calibration, reading SUNCAT_DELAY) in
// every suncat command. suncat imports no package that is compiled into
// instrumented programs but logrt/tracefmt, which has no init code
// (TestNoRuntimeImport in cmd/suncat checks it).
//
// It imports nothing but embed, and nothing else belongs here.
//
// Called by: instrument (RuntimeFiles and the test hooks' overlay).
package suncat
