package prioritize

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// A SubCount is a terminal's calls and distinct values in one sub-trace.
type SubCount struct {
	Sub    int          // index in Group.SubTraces
	Calls  int          // calls in the sub-trace
	Values []ValueCount // distinct values, in order of first return
	Unkept int          // calls whose values are not among Values (maxCellValues)
}

// NumSubs is the number of sub-traces of the terminal's group.
func (t *Terminal) NumSubs() int { return t.nsub }

// Subs returns the terminal's calls and values in the sub-traces it
// occurs in, by sub-trace; the others have none. The caller must not
// change them.
func (t *Terminal) Subs() []SubCount { return t.subs }

// find returns the index in t.subs of sub-trace sub, or -1.
func (t *Terminal) find(sub int) int {
	i := sort.Search(len(t.subs), func(i int) bool { return t.subs[i].Sub >= sub })
	if i < len(t.subs) && t.subs[i].Sub == sub {
		return i
	}
	return -1
}

// Calls returns the terminal's calls in sub-trace sub.
func (t *Terminal) Calls(sub int) int {
	if i := t.find(sub); i >= 0 {
		return t.subs[i].Calls
	}
	return 0
}

// ValuesIn returns the terminal's distinct values in sub-trace sub (nil
// when it has none there). The caller must not change them.
func (t *Terminal) ValuesIn(sub int) []ValueCount {
	if i := t.find(sub); i >= 0 {
		return t.subs[i].Values
	}
	return nil
}

// PerSub returns the terminal's calls in each sub-trace, a new slice of
// NumSubs counts: for an output of one terminal's row.
func (t *Terminal) PerSub() []int {
	out := make([]int, t.nsub)
	for _, c := range t.subs {
		out[c.Sub] = c.Calls
	}
	return out
}

// SetSubs gives the terminal its calls and values in the sub-traces it
// occurs in (by Sub, each once, below n), of n sub-traces; the terminal
// keeps subs.
func (t *Terminal) SetSubs(n int, subs []SubCount) {
	t.subs, t.nsub = subs, n
}

// SetPerSub gives the terminal its calls and values in each sub-trace,
// as the JSON form has them (bySub may be nil: no values): it keeps the
// sub-traces with calls or values.
func (t *Terminal) SetPerSub(perSub []int, bySub [][]ValueCount) {
	n := len(perSub)
	if len(bySub) > n {
		n = len(bySub)
	}
	var subs []SubCount
	for i := 0; i < n; i++ {
		c := SubCount{Sub: i}
		if i < len(perSub) {
			c.Calls = perSub[i]
		}
		if i < len(bySub) {
			c.Values = bySub[i]
		}
		if c.Calls != 0 || c.Values != nil {
			subs = append(subs, c)
		}
	}
	t.SetSubs(n, subs)
}

// terminalJSON is the JSON form of a Terminal (doc/summary.md), with
// its counts per sub-trace for every sub-trace: Calls is how perSub is
// written or read ([]int, or denseCalls, which writes it from the sparse
// counts), Values bySub's.
type terminalJSON[Calls, Values any] struct {
	Letter string            `json:"letter"`
	Name   string            `json:"name"`
	Getter tracefile.Getter  `json:"getter"`
	Frames []tracefile.Frame `json:"frames"`
	Total  int               `json:"total"`
	Unkept int               `json:"unkept,omitempty"`
	Cut    bool              `json:"cut,omitempty"`
	PerSub Calls             `json:"perSub"`
	Values []ValueCount      `json:"values"`
	BySub  Values            `json:"bySub"`
}

// denseJSON is the JSON form of a Terminal with its counts made for
// every sub-trace, as it is read back.
type denseJSON = terminalJSON[[]int, [][]ValueCount]

// MarshalJSON writes the terminal with perSub and bySub for every
// sub-trace, without making them first.
func (t *Terminal) MarshalJSON() ([]byte, error) {
	return marshalRaw(terminalJSON[denseCalls, denseValues]{Letter: t.Letter, Name: t.Name, Getter: t.Getter, Frames: t.Frames, Total: t.Total,
		Unkept: t.Unkept, Cut: t.Cut, PerSub: denseCalls{t}, Values: t.Values, BySub: denseValues{t}})
}

// marshalRaw is json.Marshal without escaping HTML: the encoder of the
// whole escapes it or not, as it was told (a marshaler's output is
// escaped with the rest).
func marshalRaw(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads the JSON form.
func (t *Terminal) UnmarshalJSON(data []byte) error {
	var j denseJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*t = Terminal{Letter: j.Letter, Name: j.Name, Getter: j.Getter, Frames: j.Frames, Total: j.Total, Unkept: j.Unkept, Cut: j.Cut, Values: j.Values}
	t.SetPerSub(j.PerSub, j.BySub)
	return nil
}

// denseCalls writes a terminal's calls in every sub-trace: [0,3,0].
type denseCalls struct{ t *Terminal }

func (d denseCalls) MarshalJSON() ([]byte, error) {
	var b []byte
	b = append(b, '[')
	next := 0
	for i := 0; i < d.t.nsub; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		n := 0
		if next < len(d.t.subs) && d.t.subs[next].Sub == i {
			n = d.t.subs[next].Calls
			next++
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']'), nil
}

// denseValues writes a terminal's values in every sub-trace, null where
// it has none: [null,[{"value":"x","count":1}]].
type denseValues struct{ t *Terminal }

func (d denseValues) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as marshalRaw
	b.WriteByte('[')
	next := 0
	for i := 0; i < d.t.nsub; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if next >= len(d.t.subs) || d.t.subs[next].Sub != i {
			b.WriteString("null")
			continue
		}
		vs := d.t.subs[next].Values
		next++
		if err := enc.Encode(vs); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}
