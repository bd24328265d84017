package prioritize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// OneLine folds every run of white space in s (newlines and tabs of a
// SQL statement written over several lines) into one space and trims
// it: the form one-line views show a value in.
func OneLine(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' }) &&
		!strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Shorten cuts s to at most n runes, the last three of them "..." when
// it cuts.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n || n < 4 {
		return s
	}
	r := []rune(s)
	return string(r[:n-3]) + "..."
}
