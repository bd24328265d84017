// Command suncat finds the code of a Go program that will get slow for big
// inputs, from runs with small ones. The README has the workflow and
// doc/ the manual, a file per command.
//
// This package owns the command line and nothing else: parsing flags,
// choosing what to run, reading trace files from the arguments, printing,
// and exit statuses. main is trivial; the whole interface is
// run(stdout, stderr, args) (command.go), which tests call in-process.
// Each command is a file that registers itself (summary.go, test.go, ...;
// suncat test is split along its jobs into testargs.go, testflags.go,
// testvet.go, testrun.go and testgrowing.go). Errors are one line, put
// after the command's name once by run; misuse exits 2, other failures 1.
//
// The work is in the libraries: instrument (getters and builds),
// logrt/tracefile (reading traces), logrt/host (the control client),
// prioritize (summaries, findings and their text), grammar, delay, export
// (pprof, the HTML report) and tui (the viewer). Logic that a second caller could need
// belongs there, not here. It imports those libraries and logrt/tracefmt
// for the names it shares with the runtime (DefaultDir, ControlDir, the
// environment variables), never the runtime logrt itself, whose start-up
// would run in every command (TestNoRuntimeImport); nothing imports it,
// and it must not import the test-only packages of internal/ outside its
// tests.
//
// Called by: the user; the tests in this directory through run, and the
// scripts of testdata/script through the suncat binary.
package main
