// Package tracefmt holds what the runtime (package logrt, compiled into
// instrumented programs) and suncat share: the definitions of the trace
// file format that the writer (logrt) and the reader (logrt/tracefile)
// use, that is the layout (format.go), the magic, the version, the record
// kinds and the getter table's entry, with the kinds of event an entry
// records (EventKind) and the calls hooked in the standard library
// (events.go); and the names and folders the runtime reads and suncat
// sets or searches (places.go): the environment variables SUNCAT_TRACE,
// SUNCAT_CONTROL and SUNCAT_DELAY, the runtime's package directory
// (suncatrt), the default trace folder, the control sockets' folder and
// the check that a folder is this user's own. suncat imports this package, never logrt, so that
// its commands do not run the runtime's start-up.
//
// Like logrt, it imports only the standard library and is written for Go
// 1.18: instrument copies it into instrumented programs beside the
// runtime (as <module>/suncatrt/tracefmt), where it is compiled under the
// user's module's go version. It has no variables and no init code.
//
// Called by: logrt, the writer; logrt/tracefile, the reader; logrt/host,
// instrument and cmd/suncat for the names and folders; prioritize, delay,
// export and tui for the kinds of event and the hooked calls' names
// (EventKind, CallPrefix, ReadPrefix, Like); internal/testtrace, which
// writes traces record by record. Nothing else may define the format.
package tracefmt
