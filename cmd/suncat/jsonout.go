package main

import (
	"bufio"
	"io"
	"reflect"
)

// encodeIndented writes v as a json.Encoder with SetIndent("", "  ")
// writes it, byte for byte, without holding the indented form nor the
// whole compact one: the fields of structs and the elements of slices
// down to a few levels (a summary's groups, their terminals and
// patterns, the findings' sites; jsonstream.go) are marshalled one at a
// time and indented as they are written. A summary of tens of thousands
// of sub-traces is gigabytes once indented (every count of every
// terminal on a line of its own), and the compact form of a -reads
// trace's summary is too (1.87 GB for 50 Hugo pages); what is held is
// the largest piece (one group's grammar).
func encodeIndented(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writePieces(bw, reflect.ValueOf(v), 0, 4); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// indentCompact writes compact JSON (as json.Marshal writes it: no space
// outside strings) indented as json.Indent(dst, src, "", "  ") does:
// each element and member on a line of its own, "key": value, empty
// arrays and objects as [] and {}.
func indentCompact(w *bufio.Writer, src []byte) { indentCompactAt(w, src, 0) }

// indentCompactAt is indentCompact for a value written at depth (its
// first line already indented).
func indentCompactAt(w *bufio.Writer, src []byte, depth int) {
	open := false // after '[' or '{': indent before the next byte, unless it closes
	inString, escaped := false, false
	newline := func() {
		w.WriteByte('\n')
		for i := 0; i < depth; i++ {
			w.WriteString("  ")
		}
	}
	for _, c := range src {
		if inString {
			w.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if open && c != ']' && c != '}' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			inString = true
			w.WriteByte(c)
		case '{', '[':
			open = true
			w.WriteByte(c)
		case ',':
			w.WriteByte(c)
			newline()
		case ':':
			w.WriteString(": ")
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			w.WriteByte(c)
		default:
			w.WriteByte(c)
		}
	}
}
