// Package tui is suncat's terminal viewer for a Performance Summary
// (`suncat view`, `suncat demo`), built with bubbletea v1, lipgloss and
// bubbles.
//
// It reads a prepared summary through the small Summary interface
// (source.go) and nothing else: the findings (growing call sites), groups
// with their terminals and rules,
// patterns in the order of one of the Summary's sort keys, the Summarized
// Grammar for a threshold, and the notations (a^4|5|6|7, C^<=6) already
// written. Tests feed it an in-memory summary; FromPrioritize
// (prioritize.go) adapts the one prioritize builds, and is with
// findings.go (a site's counts, as prioritize's renderer writes them,
// CountList) the only file that imports prioritize. A Loader prepares the summary in the background and
// reports its progress, which the viewer shows until the first screen is
// ready.
//
// Structure (as in glow and soft-serve): the top Model (model.go) holds a
// state (loading, ready, failed) and hands each message to the part it
// concerns (keys.go): one sub-model per view, each embedding a listModel
// (list.go: rows, cursor, scroll, drawing only the visible rows) and
// owning how its rows are built and written and the keys of its settings:
// findingsModel (findings.go: the growing call sites, the view the viewer
// opens on; enter narrows the other views to a site's terminals),
// patternsModel (patterns.go: sort, filter), grammarModel for the
// Summarized and the Full Grammar (grammar.go: drill-in path, threshold,
// counts mode), countModel and stringsModel (terminals.go); the
// detailsModel pane (details.go) and the delayModel box (delay.go). What
// crosses views stays on the top model: drilling in, back, context jumps
// and marks (nav.go), the search, the status and help lines (render.go).
// A common struct, shared by pointer, holds the size and the layout
// derived from it, the styles (styles.go, the only place colors are
// chosen), the one keyMap (keys.go, with its help), the group shown and
// the marks. Lists render only their visible rows, so a summary of any
// size scrolls at the same speed.
//
// tui must not import instrument (heavy analysis stays there) nor read
// traces itself; it is called by cmd/suncat (view.go, demo.go).
package tui
