// Package tracefmt holds the definitions of the trace file format that
// the writer (package logrt, compiled into instrumented programs) and the
// reader (package logrt/tracefile, in suncat) share: the layout (format.go),
// the magic, the version, the record kinds and the getter table's entry.
//
// Like logrt, it imports only the standard library and is written for Go
// 1.18: instrument copies it into instrumented programs beside the
// runtime (as <module>/suncatrt/tracefmt), where it is compiled under the
// user's module's go version. It has no variables and no init code.
//
// Called by: logrt, the writer, and logrt/tracefile, the reader; nothing
// else may define the format.
package tracefmt
