// Package export writes a Performance Summary in the formats of other
// tools: a pprof profile (profile.proto, as
// github.com/google/pprof/profile writes it), so that suncat's exact call
// counts, with their stacks, can be read by go tool pprof (top, list,
// traces, flame graphs, -diff_base) and merged and stored by tools built
// for pprof profiles; and an HTML page (HTML, suncat report), one
// self-contained file with a log-log chart per finding (inline SVG, no
// script), the responsible function's source with its loop marked, and
// a comparison's sites BASE against HEAD.
//
// It owns the mapping from a summary to those formats and nothing else:
// it reads a *prioritize.Summary or *prioritize.Comparison (never a trace
// file) and writes to an io.Writer. The page's words (classes, counts,
// predictions, what a finding covers) come from prioritize's renderer
// (prioritize.FindingParts and its siblings), so it never disagrees with
// the text summary; the sources it shows are read through the function
// its caller gives (Report.Source). It must not import instrument
// (go/packages, go/ssa), and prioritize must not import it: the viewer,
// which reads summaries, does not link the pprof package. cmd/suncat's
// pprof, report and check -html call it.
//
// # The profile
//
// Sample types are calls/count (the default) and values/count. There is
// one sample per terminal (a recorded call stack of a getter) and
// sub-trace in which it was called: calls is the number of calls, values
// the number of distinct strings they returned in that sub-trace. The
// locations are the stack's frames as recorded (the getter first), with
// their functions, files and lines. Each sample carries the labels
//
//	getter     the getter's name, as the summary prints it: (*Stop).Name
//	goroutine  the goroutine group's entry function: main.main
//	subtrace   the sub-trace's label: stop 3, TestFind/n=8, episode 2
//	site       the call site of the summary's findings: (*Stop).Name at
//	           model.(*ViewState).visit (state.go:53)
//	growth     the site's growth class, when it grows: linear,
//	           quadratic, ... (prioritize.ClassText)
//
// and the numeric label repetition (the sub-trace's number, from 1), so
// pprof's -tagfocus, -tagignore and -tagshow select getters, groups and
// repetitions. A call recorded inside database/sql or net/http (-calls
// sql, http) has one sample per statement or URL instead, whose leaf
// location is a function named by it ("sql: SELECT ...", white space
// folded) and whose label statement holds it whole. Events outside every sub-trace (before the first mark, or
// left out by -run) are not in the profile, as they are not in the
// summary.
package export
