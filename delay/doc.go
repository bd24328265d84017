// Package delay slows chosen getters down and measures what a user would
// feel (SUNCAT paper, section 3.3): whether a suspicious pattern is on the
// path a person waits for.
//
// Resolve turns the user's names for getters (Stop.Name, (*Stop).Name,
// pkg.(*Stop).Name, a regexp, or a terminal letter or pattern of a trace's
// summary) into the instrumented program's getter ids. Compare takes the
// traces of a scenario run twice, plainly and with the delays, and reports
// for every sub-trace the response time of the goroutine that handled it,
// the number of delayed calls in it, and a verdict.
//
// The delay itself is applied by logrt (SetDelays, SUNCAT_DELAY); the
// build by package instrument, which this package must not import (it
// pulls in go/packages): getters come as tracefile.Getter, as in a trace's
// getter table. This package does no I/O of its own and is called by
// cmd/suncat (delay) and could be by the viewer (tui).
package delay
