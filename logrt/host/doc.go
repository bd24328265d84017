// Package host is the suncat side of the runtime's control channel: it
// finds the instrumented processes that are running (LiveProcesses) and
// sends them marks, pauses and resumes (SendControl), which the runtime's
// control server (logrt's control.go) records in their traces.
//
// Nothing of it is compiled into instrumented programs. It imports only
// the standard library and logrt/tracefmt (the control directory's name
// and its check), not the runtime logrt. Called by cmd/suncat (mark, pause, resume, and demo, which
// marks its scenario).
package host
