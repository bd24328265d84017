// Package grammar implements suncat's lossy grammar-based compression of
// event traces (SUNCAT paper, section 3.2 and Figure 7), exactly as
// specified in the project's grammar-spec.md.
//
// A trace is a list of sub-traces of terminals. Build compresses it into a
// Grammar: a start rule S and nonterminal rules whose right-hand sides are
// repetition patterns (RPs), each a symbol with the distinct repetition
// counts seen for it (a^4|5|6|7). Every RP also keeps its observations: the
// counts in the order they were absorbed, each tagged with the sub-trace it
// came from, so later stages can classify growth per repetition.
//
// There are two engines. The reference engine transcribes the
// specification's computeRPList line by line: after every merge it restarts
// at substring length 1 and rescans the whole list. It is quadratic or
// worse and is kept for tests and for `suncat grammar -reference`. The fast
// engine (the default) produces the same grammar in near-linear time; see
// fast.go for how it keeps the specification's global merge order.
//
// A Builder takes a trace one sub-trace at a time. A sub-trace's
// compression depends on the sub-traces before it only through the names
// of the rules they made, so Compress compresses one on its own (several
// at once, on other goroutines) and Builder.AddChunk renames its rules
// into the Builder's, with the same grammar, observations included.
//
// Cut keeps the first k items of each rule (S's too) and the first k
// observations of each item, and counts what it leaves out (StartMore,
// Rule.More, RP.MoreObs; the JSON's moreStart, more and moreObs; String
// ends a cut rule in " ..."): a summary shows that much of a grammar
// whose start rule has millions of items.
//
// # Observations
//
// An observation belongs to one item: position p of one rule's body (or
// of S). Whenever the algorithm absorbs a window into a rule, each
// position records the count its RP had in that window, tagged with the
// sub-trace being compressed; consecutive equal observations are stored
// once with a Times count. So for nested rules the counts are per
// repetition, never totals: in
//
//	$ a b b b a b b b b $ $ a b a b
//
// which prints S -> A^2, A -> B^2, B -> a b^3|4|1, the item b of B has the
// observations (sub 0, count 3), (0, 4), (1, 1) twice: one per window that
// became B, in both sub-traces; the item B of A has (0, 2) and (1, 2), how
// often B repeated in each sub-trace; the item A of S has (-1, 2). A rule
// used in several places keeps one observation list per item, the union
// of all its uses in the order they were absorbed (the order of its
// distinct counts). Sub-trace numbers count non-empty sub-traces only,
// since the specification drops empty ones. The number of events behind
// an item is the product of the counts along its path from S.
//
// # Choices where the specification is silent
//
//   - Comparison Mode is used when the trace has two or more non-empty
//     sub-traces; a trace whose separators leave only one non-empty
//     sub-trace is compressed as a single sub-trace (no wrapping rule).
//   - Observations of items of S carry sub-trace -1 in Comparison Mode,
//     because their counts are formed across sub-traces.
//   - Only rules reachable from S are printed. (Every rule the algorithm
//     creates stays reachable, so this only matters for robustness.)
//   - A rule shared by several places accumulates the observations of all
//     of them, in the order the algorithm absorbed them; that order is the
//     order of the distinct counts it prints.
//   - Nonterminal names skip any name that equals a terminal's name or "S".
//
// This package does no I/O beyond reading the text format from an
// io.Reader. It must not import logrt, logrt/tracefile, instrument,
// prioritize or tui: it knows tokens, not traces. It is called by
// prioritize (each goroutine group's grammar), by cmd/suncat (the grammar
// command) and by the viewer's adapter (tui/prioritize.go), which reads
// the rules prioritize built.
package grammar
