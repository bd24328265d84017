// Package instrument finds the string getters of a Go program and builds
// an instrumented copy of it without touching the user's files (SUNCAT
// paper, section 3.1).
//
// Analyze loads the program with go/packages and classifies, with go/ssa,
// the functions whose string result is on every return path the value of a
// struct field or a constant (with at least one field). Rewrite edits the
// original bytes of the files that declare getters so that every returned
// string passes through logrt.String, without adding a line (a file
// with read or call sites whose module's language predates the rewrite's
// gets a //go:build go1.20 line on a line it had: language.go). Build compiles
// the program with `go build -overlay`: the rewritten files and a copy of
// the logrt runtime (an overlay-only package inside the main module) are
// overlays, so the user's tree, go.mod and go.sum stay byte-identical.
//
// With Options.Reads and Options.Calls (suncat's -reads and -calls,
// events.go) it also records every read of a struct field and every call
// of the chosen functions: the rewrite wraps the expression read or the
// callee in a call of the runtime's Read and Call functions, and gives
// each function that reads a FrameCache of its own (rewrite.go); the
// built-in sets of -calls (sql, http) are recorded inside the standard
// library, through an overlaid copy of the file of each method hooked
// (stdhook.go). With Options.Deps (-deps, deps.go) the chosen
// dependencies are instrumented too: overlaid in place, or, from the
// module cache, copied into suncat's cache and the build redirected to
// the copy by a temporary go.mod or go.work.
//
// PrepareTest does the same for go test (suncat test): it also follows the
// imports of the tested packages' test files, and labels each test's
// events with its name: through an overlaid copy of the toolchain's
// testing package that calls logrt.Label (testinghook.go), or, where that
// package has an unknown shape, by rewriting copies of the test files
// (RewriteTest, with the hooks of logrt/testhook compiled as the
// overlay-only package <module>/suncatrt/testhook). The caller runs go
// test with the returned flags.
//
// The runtime's sources come from the module's root package (suncat,
// which embeds them); instrument does not import the runtime logrt, whose
// start-up would run in suncat.
//
// This package holds all the heavy analysis (go/packages, go/ssa); the
// viewer (tui) and the summary code (prioritize) must not import it. It is
// called by cmd/suncat (getters, instrument, run, test, demo, delay).
package instrument
