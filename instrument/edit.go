package instrument

import (
	"fmt"
	"sort"
)

// An editBuffer queues edits at byte offsets of an original file and
// applies them all at once, so the rest of the file (formatting, comments,
// build constraints, line numbers) stays exactly as it was.
type editBuffer struct {
	old   []byte
	edits []edit
}

type edit struct {
	start, end int
	text       string
	last       bool // after the other edits at its offset (insertLast)
	seq        int  // insertion order, to keep inserts at one offset stable
}

func newEditBuffer(old []byte) *editBuffer { return &editBuffer{old: old} }

// insert queues text to go before offset pos.
func (b *editBuffer) insert(pos int, text string) { b.replace(pos, pos, text) }

// insertLast queues text to go before offset pos, after every other
// insert there, whenever queued: the closing text of a wrap that encloses
// the others ending at pos.
func (b *editBuffer) insertLast(pos int, text string) {
	b.replace(pos, pos, text)
	b.edits[len(b.edits)-1].last = true
}

// replace queues replacing old[start:end] with text.
func (b *editBuffer) replace(start, end int, text string) {
	if start < 0 || end < start || end > len(b.old) {
		panic(fmt.Sprintf("edit [%d,%d) out of range [0,%d)", start, end, len(b.old)))
	}
	b.edits = append(b.edits, edit{start: start, end: end, text: text, seq: len(b.edits)})
}

// bytes applies the edits. Overlapping replacements are a bug in the
// caller and panic.
func (b *editBuffer) bytes() []byte {
	sort.SliceStable(b.edits, func(i, j int) bool {
		ei, ej := b.edits[i], b.edits[j]
		if ei.start != ej.start {
			return ei.start < ej.start
		}
		if ei.last != ej.last {
			return ej.last
		}
		return ei.seq < ej.seq
	})
	var out []byte
	last := 0
	for i, e := range b.edits {
		if e.start < last {
			panic(fmt.Sprintf("overlapping edits at offset %d (edit %d)", e.start, i))
		}
		out = append(out, b.old[last:e.start]...)
		out = append(out, e.text...)
		last = e.end
	}
	return append(out, b.old[last:]...)
}
