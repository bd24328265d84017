package prioritize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// denseTerminal is the JSON form of a Terminal as it was written before
// its counts were kept sparse, perSub and bySub made for every
// sub-trace: the form must not change (testdata/golden/json-schema.txt
// holds its fields).
type denseTerminal = denseJSON

// randomTerminal makes a terminal of n sub-traces with calls in some,
// and its dense form.
func randomTerminal(r *rand.Rand, n int) (*Terminal, denseTerminal) {
	vals := []string{"v", "<a&b>", "é\u2028x", "", "\"q\"\n", "\xff"}
	d := denseTerminal{Letter: "a" + strconv.Itoa(n), Name: "(*T).<Name>", Getter: tracefile.Getter{ID: 3, Package: "p&q", Method: "Name"},
		Frames: []tracefile.Frame{{Func: "p.f", File: "/p/<f>.go", Line: 3}}, PerSub: make([]int, n), BySub: make([][]ValueCount, n)}
	var subs []SubCount
	for i := 0; i < n; i++ {
		if r.Intn(3) != 0 {
			continue
		}
		c := SubCount{Sub: i, Calls: 1 + r.Intn(50), Values: []ValueCount{}}
		for k := r.Intn(3); k >= 0; k-- {
			c.Values = append(c.Values, ValueCount{Value: vals[r.Intn(len(vals))], Count: 1 + r.Intn(4)})
		}
		subs = append(subs, c)
		d.PerSub[i], d.BySub[i] = c.Calls, c.Values
		d.Total += c.Calls
	}
	d.Values, _, _ = allValues(subs)
	t := &Terminal{Letter: d.Letter, Name: d.Name, Getter: d.Getter, Frames: d.Frames, Total: d.Total, Values: d.Values}
	t.SetSubs(n, subs)
	return t, d
}

// TestTerminalJSON: a terminal's JSON form has its counts and values in
// every sub-trace, byte for byte as the dense form was written, with
// and without HTML escaped and indented; it reads back the same.
func TestTerminalJSON(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 2, 5, 40} {
		term, dense := randomTerminal(r, n)
		for _, html := range []bool{true, false} {
			enc := func(v any) string {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(html)
				e.SetIndent("", "  ")
				if err := e.Encode(v); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			got, want := enc([]*Terminal{term}), enc([]denseTerminal{dense})
			if got != want {
				t.Fatalf("%d sub-traces, HTML escaped %v:\n got %s\nwant %s", n, html, got, want)
			}
		}
		data, err := json.Marshal(term)
		if err != nil {
			t.Fatal(err)
		}
		var back Terminal
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		dense = denseTerminal{} // as read back ("\xff" is "\ufffd")
		if err := json.Unmarshal(data, &dense); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.PerSub(), dense.PerSub) || back.NumSubs() != n || len(back.Subs()) != len(term.Subs()) {
			t.Errorf("%d sub-traces: read back %v in %d, want %v", n, back.PerSub(), back.NumSubs(), dense.PerSub)
		}
		for i := 0; i < n; i++ {
			if got := back.ValuesIn(i); !reflect.DeepEqual(got, dense.BySub[i]) || back.Calls(i) != dense.PerSub[i] {
				t.Errorf("sub-trace %d: %d calls, values %v; want %d, %v", i, back.Calls(i), got, dense.PerSub[i], dense.BySub[i])
			}
		}
	}
}

// denseCountLine is CountLine over a dense row, as it was written.
func denseCountLine(letter string, counts []int, total int) string {
	if len(counts) <= 1 {
		return fmt.Sprintf("%s^%d", letter, total)
	}
	var parts []string
	for i := 0; i < len(counts); i++ {
		j := i
		for j < len(counts) && counts[j] == 0 {
			j++
		}
		if len(counts) > 16 && j-i >= 3 {
			parts = append(parts, fmt.Sprintf("0(x%d)", j-i))
			i = j - 1
			continue
		}
		parts = append(parts, strconv.Itoa(counts[i]))
	}
	return letter + "^" + strings.Join(parts, "|")
}

// TestCountLineSparse: CountLine of the sparse counts is that of the
// dense row, short and long, zeros anywhere.
func TestCountLineSparse(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for k := 0; k < 500; k++ {
		n := r.Intn(40)
		per := make([]int, n)
		for i := range per {
			if r.Intn(3) == 0 {
				per[i] = r.Intn(5) // zeros too, kept or not
			}
		}
		term := &Terminal{Letter: "b", Total: 7}
		term.SetPerSub(per, nil)
		if got, want := CountLine(term), denseCountLine("b", per, 7); got != want {
			t.Fatalf("%v: %q, want %q", per, got, want)
		}
	}
}
