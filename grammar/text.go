package grammar

import (
	"bufio"
	"fmt"
	"io"
)

// ParseText reads the text form of a trace: whitespace-separated tokens,
// with the token "$" separating sub-traces. Each distinct token becomes a
// terminal named by the token, in order of first appearance.
func ParseText(r io.Reader) (*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<30)
	sc.Split(bufio.ScanWords)
	t := &Trace{Subs: [][]int32{nil}}
	ids := make(map[string]int32)
	for sc.Scan() {
		tok := sc.Text()
		if tok == "$" {
			t.Subs = append(t.Subs, nil)
			continue
		}
		id, ok := ids[tok]
		if !ok {
			id = int32(len(t.Names))
			ids[tok] = id
			t.Names = append(t.Names, tok)
		}
		last := len(t.Subs) - 1
		t.Subs[last] = append(t.Subs[last], id)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading trace: %w", err)
	}
	return t, nil
}
