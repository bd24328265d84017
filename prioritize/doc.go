// Package prioritize turns a decoded trace into suncat's Performance
// Summary (SUNCAT paper, sections 3.2.1 and 3.2.3, Figure 5(c)): it
// abstracts events to terminals by their call stacks, splits the trace
// into sub-traces, compresses each goroutine group with the lossy grammar,
// and owns the classification (constant, increasing, decreasing, varying),
// sorting, filtering and summarizing of the repetition patterns.
//
// It opens no file: it works on tracefile.Trace values that the caller
// decoded, and returns data and strings. The one thing it reads is the
// user's Go source files that the frames name, and only through the
// reader its caller gives (Options.Sources, NewSources; the Sources
// arguments of Compare, CompareFitted and FamiliesText): the findings
// parse them for the loop around a frame (responsible.go), the hint of a
// suite without sizes for a package's name. Without one, no loop is found
// and package names are guessed from import paths. The command line
// (cmd/suncat: summary, view, pprof, report, diff, check, demo, test's
// closing lines, delay), the viewer (tui), delay, export and
// prioritize/stream read it. It must not import instrument or tui.
//
// Traces too big to hold are summarized streaming: a Part (part.go) takes
// one trace's events and marks one at a time (tracefile.DecodeFunc's
// callback) and keeps per call stack and segment the calls and distinct
// values, and per goroutine group the sequence of stacks of each
// segment (unless Options.NoGrammar), which Finish compresses on its own (grammar.Compress: the
// costly half of the grammar, so a reader of several traces does it in
// parallel, as package prioritize/stream does) and drops; a Merger
// (merge.go) takes the finished parts in order of start time, numbers
// their terminals in each group and hands the compressed sub-traces to
// the group's grammar.Builder (AddChunk), which only renames their
// rules: the merge is cheap and sequential. Build
// is the same path on traces held in memory; reference_test.go keeps the
// plain whole-trace implementation it is checked against.
//
// # The model
//
// Build returns a *Summary, the one value that the text and JSON forms of
// cmd/suncat summary, the demo and the viewer's adapter
// (tui.FromPrioritize) read:
//
//	Summary                      Version (SchemaVersion), Traces, Split, Run
//	  Groups []*Group            one per goroutine group, most events first
//	    SubTraces []SubTrace     the repetitions: Label, Events, Start, End
//	    Terminals []*Terminal    Letter, Name ("(*Stop).Name"), Getter,
//	                             Frames (the stack, getter first), Total,
//	                             Values (its strings); Subs, Calls and
//	                             ValuesIn: its calls and strings in the
//	                             sub-traces it occurs in only (the Count
//	                             Summary; JSON: perSub and bySub for
//	                             every sub-trace)
//	    Grammar *grammar.Grammar its terminal i is Terminals[i] (nil, and
//	                             no Patterns, with Options.NoGrammar:
//	                             the commands that show neither); as
//	                             shown: each rule's first Options.Items
//	                             items (grammar.Cut, which counts the
//	                             rest), while the patterns and Covers
//	                             are made from the whole grammar
//	    Patterns []Pattern       the items of the rules, classified, in
//	                             the default priority order: the items of
//	                             one rule that print the same are one
//	                             pattern (Places), and a group keeps the
//	                             first Options.Patterns (MorePatterns
//	                             counts the rest); Terminals (letters)
//	                             and Getters link a pattern to the
//	                             terminals it covers, Rule and Position to
//	                             where it sits in the grammar
//	  Findings *Findings         the growth view on top (findings.go):
//	    Sizes, SizesFrom         each sub-trace's input size, and whence
//	    Target                   the size predictions are made at
//	    TimeNs, Time, LagSize    time per sub-trace, its Fit, and the size
//	                             at which it passes 100 ms
//	    Sites []*Site            one getter called from one place, over
//	                             all groups: Frames (folded), Distinct
//	                             (the frame that names it), Counts, Fit
//	                             (Class, A, B, Exponent, R2), Predicted,
//	                             Value, Terminals (links to Groups)
//
// Text, SummarizedGrammar, CountLine, PatternLine and PatternValues render
// or derive the levels from it. Findings become words in render.go
// alone: FindingParts cuts a finding into its parts (class, frame,
// counts, prediction, names, value, what it covers), which the summary
// (FindingsText, FamiliesText), suncat test (FamilyLine), the demo, the
// viewer, check (FailureLine) and the HTML report (package export) put
// together, none editing another's text; SortPatterns (which sorts in place: give
// it a copy) and Filter reorder and select patterns. A Summary is not
// changed after Build returns, so several goroutines may read it. Its
// JSON form (version SchemaVersion) is documented in doc/summary.md and
// frozen by testdata/golden/json-schema.txt.
//
// # Choices
//
//   - A terminal is a distinct getter and call stack (all frames by
//     default, the top N with Options.Frames), as it shows them: the
//     getter by name, not by its number in a trace's table, and the
//     read's frame renamed (recorderFrame), so that traces of two builds
//     of a program share their terminals. Terminals are named a, b, ..., z, aa, ab, ... in
//     order of first appearance; lower case never collides with the
//     grammar's upper-case nonterminal names.
//   - Sub-traces: "marks" (the default when the trace has marks) makes one
//     sub-trace per mark, up to the next mark; events before the first mark
//     (start-up) belong to no sub-trace. "idle=D" starts a sub-trace after a
//     gap of more than D without events, like LagHunter's episodes. "at=G"
//     starts one at each call of getter G (an error names the getters
//     when G is none of them). "none" keeps one sub-trace.
//     Events are not recorded while paused, so paused spans are excluded by
//     construction. Several trace files are read in order of their start
//     time and their sub-traces appended, so separate runs of a command can
//     be compared (use -split none to make each run one sub-trace).
//   - Selecting sub-traces: Options.Run keeps only the sub-traces whose
//     label matches, by the rules of go test -run, so that with the marks
//     that suncat test writes (one per test and subtest, labelled with
//     its full name, e.g. "TestSearch/n=4") the same pattern picks the
//     same tests. The pattern is split at '/' and '|' outside brackets and
//     parentheses; each '/'-separated element is an unanchored regexp for
//     one level of the label (the label is split at every '/'), and a
//     label matches when each of its levels matches the element at that
//     level, for the levels both have, in some '|' alternative. So
//     "TestSearch/n=4" keeps "TestSearch" (the parent, which go test runs
//     to reach its subtests), "TestSearch/n=4" and "TestSearch/n=4/deep",
//     but not "TestSearch/n=1". The events of the other sub-traces belong
//     to no sub-trace (they count in Group.Left); the kept ones keep their
//     order and labels and are numbered densely, and terminals, grammar
//     and patterns see only them. A pattern that keeps nothing is an
//     error naming the labels there are. It applies to the labels of any
//     split ("episode 3", "mark 2", a file name with none).
//   - Goroutines: by default each goroutine group (goroutines that started
//     in the same function) is summarized separately, so a background
//     goroutine cannot break the patterns of the one the user is watching;
//     groups are ordered by their number of events; sub-traces are split
//     on all events. "all" summarizes everything together; any other value
//     is a regexp selecting groups by entry function, summarized together
//     and split on their own events only (so idle=D finds the gaps between
//     the watched goroutine's repetitions even while background work runs).
//   - A pattern is one repetition pattern (an item of a rule). Its series
//     is the largest count observed in each sub-trace, in sub-trace order
//     (or, when all its observations come from one sub-trace or from the
//     top level, the counts in the order observed). Constant: every
//     observed count is the same. Increasing: the series never goes down
//     and is not constant; decreasing likewise; varying otherwise. The trend
//     is the least-squares slope of the series per repetition.
//   - Default priority: increasing, then varying, then decreasing, then
//     constant; within a kind by maximum, then trend, both descending;
//     then terminals before nonterminals; then by first appearance.
//   - Findings (findings.go, sites.go, sizes.go, growth.go). A site is a
//     getter with the stack FoldStack leaves (each function's frame
//     nearest the getter, no standard-library frames; Options.Stacks
//     "whole" keeps every frame), summed over every goroutine group, so
//     recursion at any depth, sort's internals and parallel workers do
//     not split it. Its name is the frame where its stack first differs
//     from the getter's other sites (Site.Distinct). Sizes come from
//     Options.Sizes, else the last number of every sub-trace label
//     (LabelSize), else positions 1, 2, 3. FitGrowth states the growth
//     rule; the sites and findings that grow are ranked (rank.go) with
//     a test's setup (_test.go frames) last and, when the sizes are
//     input sizes, growth faster than linear first, then by their count
//     predicted at the target size, then class.
//   - Comparing two runs (compare.go, gate.go; suncat diff, check and
//     report -base):
//     Compare matches the sub-traces of a BASE and a HEAD summary by
//     label and their sites by getter and the functions of their stacks
//     (never lines), and fits both sides again on the shared sub-traces;
//     a Gate fails a site whose class went up beyond noise, or is above
//     its Max, unless Allow waives it. The rules are in compare.go.
package prioritize
