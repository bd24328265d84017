package prioritize

import "strings"

// OneLine folds the white space of a value written over several lines (a
// SQL statement's newlines and tabs) into single spaces and trims it:
// the form one-line views show a value in. A value without a newline,
// carriage return or tab is returned as it is (its spaces may matter).
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Shorten cuts s to at most n runes, the last three of them "..." when
// it cuts.
func Shorten(s string, n int) string {
	if n < 4 || len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-3]) + "..."
}
