// Package tui is suncat's terminal viewer for a Performance Summary
// (`suncat view`, `suncat demo`), built with bubbletea v1, lipgloss and
// bubbles.
//
// It reads a prepared summary through the small Summary interface
// (source.go): groups with their terminals and rules, patterns in the
// order of a sort key, and the Summarized Grammar for a threshold. Tests
// feed it an in-memory summary; FromPrioritize adapts the one prioritize
// builds. A Loader prepares the summary in the background and reports its
// progress, which the viewer shows until the first screen is ready.
//
// Structure (as in glow and soft-serve): the top Model holds a state
// (loading, ready, failed), one listView sub-model per view (Prioritized
// Patterns, Summarized Grammar, Full Grammar, Count Summary, Strings; each
// keeps its cursor and drill-in path, and draws its visible rows), the
// overlays (help, delay box), and a common struct, embedded by the Model
// and the sub-models, with the size and the layout derived from it, the
// styles (styles.go, the only place colors are chosen) and the one keyMap
// (keys.go, with its help). Lists render only their visible rows, so a
// summary of any size scrolls at the same speed.
//
// tui must not import instrument (heavy analysis stays there) nor read
// traces itself; it is called by cmd/suncat (view.go, demo.go).
package tui
