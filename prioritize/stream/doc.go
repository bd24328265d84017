// Package stream summarizes trace files too big to hold: Summarize takes
// the files loaded (tracefile.Load read their headers, which order them
// and are not read again), decodes each with DecodeTraceFunc straight into a
// prioritize.Part, so that no event is kept, reads several files at once
// (one per CPU), and merges the parts in order of start time with a
// prioritize.Merger while the next files are read. A reader holds the
// chunk of each shard its decoding is in (tracefile reads a chunk's data
// when a shard's stream enters it) and its part: the distinct stacks,
// call sites and values, plus, unless Options.NoGrammar, 4 bytes an event
// for the grammar until Finish compresses the part's sequences (about 20
// bytes an event of them while it does: parts of more than 4 M events
// take turns, while the other readers go on decoding). Once a part is
// finished its trace's stacks are dropped (Result.Stacks counts them):
// the part holds the frames its terminals show until it is merged, and
// the summary's terminals hold what they show after that.
//
// It owns the reading half of a summary: the order of the files, the
// readers, the sharing of equal stacks' frames between traces, and the
// progress counts (Counts) that a front end shows. How
// the progress and the errors are shown is its caller's: an error of the
// options (one the traces do not allow) comes back as an *OptionError,
// any other error is a trace that does not read.
//
// It imports prioritize and logrt/tracefile, and must not import tui,
// export or cmd/suncat (presentation), nor logrt (the runtime). Called by
// cmd/suncat: every command that needs only the Summary of traces named
// on its command line (summary, view, pprof, report, diff, check, delay -trace),
// demo, and test's closing findings.
package stream
