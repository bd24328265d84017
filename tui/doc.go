// Package tui is suncat's terminal viewer for a Performance Summary
// (`suncat view`), built with bubbletea, lipgloss and bubbles.
//
// The top Model holds a state (loading, ready, failed) and the current
// view (Prioritized Patterns, Summarized Grammar, Full Grammar, Count
// Summary, Strings); the pieces every part needs (size, styles, keymap)
// live in one common struct, the keys in one keyMap with help, the styles
// in styles.go. The list on the left renders only its visible rows (so a
// summary of a huge trace scrolls as fast as a small one); the details pane
// on the right is a bubbles viewport.
//
// The viewer reads a prepared summary through a Loader, a function that
// returns a *prioritize.Summary: `suncat view` passes one that decodes and
// summarizes trace files in the background while a spinner runs, and tests
// pass one that returns a summary they built. tui must not import
// instrument; it is called by cmd/suncat (view, demo).
package tui
