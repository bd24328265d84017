package main

import (
	"bufio"
	"encoding/json"
	"io"
)

// encodeIndented writes v as a json.Encoder with SetIndent("", "  ")
// writes it, byte for byte, without holding the indented form: a
// summary of tens of thousands of sub-traces is gigabytes once indented
// (every count of every terminal on a line of its own), several times
// its compact form, which is all that is held.
func encodeIndented(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	indentCompact(bw, data)
	bw.WriteByte('\n')
	return bw.Flush()
}

// indentCompact writes compact JSON (as json.Marshal writes it: no space
// outside strings) indented as json.Indent(dst, src, "", "  ") does:
// each element and member on a line of its own, "key": value, empty
// arrays and objects as [] and {}.
func indentCompact(w *bufio.Writer, src []byte) {
	depth := 0
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
