package tui

import (
	"strconv"
	"strings"
)

// quoteValue quotes a value for the viewer: one written over several
// lines (a SQL statement's newlines and tabs) on one line, its white
// space folded into single spaces, as prioritize.OneLine does; other
// values as they are.
func quoteValue(v string) string {
	if strings.ContainsAny(v, "\n\r\t") {
		v = strings.Join(strings.Fields(v), " ")
	}
	return strconv.Quote(v)
}
