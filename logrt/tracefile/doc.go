// Package tracefile reads the trace files that instrumented programs
// write (the writer is package logrt, the runtime compiled into them; the
// format they share is defined in package logrt/tracefmt).
//
// It is suncat-side only: nothing of it is compiled into instrumented
// programs, so it may use current Go and any package of suncat's module
// except the runtime, logrt, whose package-level initialization (clock and
// unwinder calibration, SUNCAT_DELAY) must not run in readers.
//
// Load reads a file's header, once: File.Header decodes it, and the
// decodings find the chunks and read them.
//
// Called by: cmd/suncat (Load, HoldsRecords, Header: the traces named on
// a command line and in trace folders, each loaded once; Decode and
// Count: events, delay -compare), prioritize/stream (Header and
// DecodeTraceFunc of the loaded files: the streaming summary);
// prioritize, delay and export use its types (the decoded Trace, Frame,
// Getter), logrt/internal/exitprog its StackKey; tests of logrt, tui,
// instrument and internal/testtrace read traces with it.
package tracefile

import "github.com/suncat-go/suncat/logrt/tracefmt"

// Getter describes one instrumented getter.
type Getter = tracefmt.Getter

// MarkKind tells a mark from a pause or a resume.
type MarkKind = tracefmt.MarkKind

const (
	KindMark   = tracefmt.KindMark
	KindPause  = tracefmt.KindPause
	KindResume = tracefmt.KindResume
	KindEnd    = tracefmt.KindEnd // the program's main returned

	// MaxValue is the number of bytes of a string value that a trace
	// keeps; longer values are cut (Event.Truncated, Event.Len).
	MaxValue = tracefmt.MaxValue
)
