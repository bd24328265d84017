package delay

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

// Verdicts.
const (
	Critical  = "critical path" // the response grew by about calls x delay
	Off       = "off the path"  // the response did not change
	Partly    = "partly"        // in between
	Short     = "too short"     // one event: no span to measure
	NotCalled = "not called"    // the delayed run made no delayed call: nothing was slowed down
)

// NoMarks is Report.Note when no trace has a mark and the split is by
// marks: each run is one sub-trace, from its first to its last recorded
// event, start-up and pauses included.
const NoMarks = "the runs have no marks: each is timed whole, from its first to its last recorded event (start-up and pauses included); mark the action (suncat mark, or a mark from the program) or give -split idle=DURATION to time it alone"

// A Row compares one sub-trace of the plain and the delayed run.
type Row struct {
	SubTrace  int           `json:"subTrace"` // 1-based
	Label     string        `json:"label"`
	Goroutine string        `json:"goroutine"` // the group that handled it (most events)
	Plain     time.Duration `json:"plainNs"`   // its response time in the plain run
	Delayed   time.Duration `json:"delayedNs"` // and in the delayed run
	Growth    time.Duration `json:"growthNs"`  // Delayed - Plain
	Calls     int           `json:"calls"`     // delayed calls made by that goroutine
	Elsewhere int           `json:"elsewhere"` // delayed calls made by other goroutines
	Expected  time.Duration `json:"expectedNs"`
	Verdict   string        `json:"verdict"`
}

// A Report is the result of Compare.
type Report struct {
	Version int           `json:"version"`
	Delay   time.Duration `json:"delayNs"`
	Split   string        `json:"split"`
	Rows    []Row         `json:"rows"`
	Verdict string        `json:"verdict"` // over all sub-traces
	Note    string        `json:"note,omitempty"`
}

// run is one run's events, split into sub-traces.
type run struct {
	subs [][]*tracefile.Event
}

func split(traces []*tracefile.Trace, spec string) (*run, []string, error) {
	r := &run{}
	var labels []string
	for _, tr := range traces {
		of, subs, err := prioritize.SplitEvents(tr, spec)
		if err != nil {
			return nil, nil, err
		}
		base := len(r.subs)
		for _, s := range subs {
			r.subs = append(r.subs, nil)
			labels = append(labels, s.Label)
		}
		for i := range tr.Events {
			if of[i] >= 0 {
				r.subs[base+of[i]] = append(r.subs[base+of[i]], &tr.Events[i])
			}
		}
	}
	return r, labels, nil
}

// span is the response time of goroutine group entry in sub: from its
// first to its last event.
func span(sub []*tracefile.Event, entry string) time.Duration {
	first, last := int64(-1), int64(-1)
	for _, e := range sub {
		if e.Entry != entry {
			continue
		}
		if first < 0 {
			first = e.Time
		}
		last = e.Time
	}
	if first < 0 {
		return 0
	}
	return time.Duration(last - first)
}

// Compare reports, sub-trace by sub-trace, how the delays of the getters
// ids (d per call) changed the response time of the goroutine that handled
// each sub-trace.
//
// When goroutines is not nil, only the events of the goroutine groups whose
// entry function it matches are considered, for splitting and measuring
// alike: the goroutine the user is watching, without background noise.
//
// match, when not nil, limits the delays of its ids to the calls whose
// value it matches (a statement): only those count as delayed calls.
func Compare(plain, delayed []*tracefile.Trace, ids []uint32, d time.Duration, spec string, goroutines *regexp.Regexp, match *Match) (*Report, error) {
	called := anyCalled(delayed, ids, match)
	plain, delayed = only(plain, goroutines), only(delayed, goroutines)
	p, labels, err := split(plain, spec)
	if err != nil {
		return nil, err
	}
	q, _, err := split(delayed, spec)
	if err != nil {
		return nil, err
	}
	rep := &Report{Version: 1, Delay: d, Split: spec}
	n := len(p.subs)
	if len(q.subs) != n {
		rep.Note = fmt.Sprintf("the plain run has %d sub-traces and the delayed run %d; comparing the first %d", len(p.subs), len(q.subs), min(n, len(q.subs)))
		n = min(n, len(q.subs))
	}
	delayedID := map[uint32]bool{}
	for _, id := range ids {
		delayedID[id] = true
	}
	counts := map[string]int{}
	measured := 0
	for i := 0; i < n; i++ {
		// The handling goroutine: the group with the most events.
		byEntry := map[string]int{}
		best := ""
		for _, e := range p.subs[i] {
			byEntry[e.Entry]++
			if best == "" || byEntry[e.Entry] > byEntry[best] {
				best = e.Entry
			}
		}
		row := Row{SubTrace: i + 1, Label: labels[i], Goroutine: best}
		row.Plain, row.Delayed = span(p.subs[i], best), span(q.subs[i], best)
		row.Growth = row.Delayed - row.Plain
		for _, e := range q.subs[i] {
			if delayedID[e.Getter] && match.wants(e.Getter, e.Value) {
				if e.Entry == best {
					row.Calls++
				} else {
					row.Elsewhere++
				}
			}
		}
		row.Expected = time.Duration(row.Calls) * d
		row.Verdict = verdict(row)
		if row.Plain == 0 && row.Delayed == 0 {
			row.Verdict = Short
		} else {
			counts[row.Verdict]++
			measured++
		}
		rep.Rows = append(rep.Rows, row)
	}
	rep.Verdict = overall(counts, measured)
	if !called {
		notCalled(rep)
	}
	if noMarks(plain, spec) {
		rep.Note = strings.TrimPrefix(rep.Note+"; "+NoMarks, "; ")
	}
	return rep, nil
}

// anyCalled reports whether the traces have a delayed call (of ids, as
// far as match says), in any goroutine.
func anyCalled(traces []*tracefile.Trace, ids []uint32, match *Match) bool {
	for _, tr := range traces {
		for i := range tr.Events {
			e := &tr.Events[i]
			for _, id := range ids {
				if e.Getter == id && match.wants(id, e.Value) {
					return true
				}
			}
		}
	}
	return false
}

// notCalled gives every row and the report the verdict not called: the
// delayed run made no delayed call at all, nothing was slowed down, so
// nothing can be said of the path.
func notCalled(rep *Report) {
	for i := range rep.Rows {
		rep.Rows[i].Verdict = NotCalled
	}
	rep.Verdict = NotCalled
}

// overall is the verdict over the sub-traces: counts of each row
// verdict, measured the rows with a span.
func overall(counts map[string]int, measured int) string {
	switch {
	case measured == 0:
		return "no sub-trace to measure"
	case counts[Critical] == measured:
		return Critical
	case counts[Off] == measured:
		return Off
	}
	return Partly
}

// noMarks reports whether the split is by marks (the default) and no
// trace has one.
func noMarks(traces []*tracefile.Trace, spec string) bool {
	if spec != "" && spec != "marks" {
		return false
	}
	for _, tr := range traces {
		for _, m := range tr.Marks {
			if m.Kind == tracefile.KindMark {
				return false
			}
		}
	}
	return true
}

// A Match limits the delays of the getters IDs to the calls whose value
// matches Pattern, a SQL LIKE pattern (tracefmt.Like): one statement of all
// a hooked method runs.
type Match struct {
	IDs     []uint32
	Pattern string
}

// wants reports whether a call of getter id returning v is delayed, as
// far as m says (nil: every call).
func (m *Match) wants(id uint32, v string) bool {
	if m == nil {
		return true
	}
	for _, x := range m.IDs {
		if x == id {
			return tracefmt.Like(v, m.Pattern)
		}
	}
	return true
}

// Statement reads a --getter that names one statement or URL of the calls
// a -calls set records: "sql:SELECT Name FROM Tags%" is the set sql and
// the pattern "SELECT Name FROM Tags%". ok is false for other names.
func Statement(name string) (set, pattern string, ok bool) {
	set, pattern, ok = strings.Cut(name, ":")
	if !ok || (set != "sql" && set != "http") || strings.TrimSpace(pattern) == "" {
		return "", "", false
	}
	return set, pattern, true
}

// CallsOf returns the ids of the table's calls that the -calls set
// records inside the standard library (field "call:sql").
func CallsOf(getters []tracefile.Getter, set string) []uint32 {
	var ids []uint32
	for _, g := range getters {
		if g.HookedCall() && g.Field == tracefmt.CallPrefix+set {
			ids = append(ids, g.ID)
		}
	}
	return ids
}

// only returns copies of traces holding only the events of the goroutine
// groups re matches (all when re is nil).
func only(traces []*tracefile.Trace, re *regexp.Regexp) []*tracefile.Trace {
	if re == nil {
		return traces
	}
	out := make([]*tracefile.Trace, len(traces))
	for i, tr := range traces {
		c := *tr
		c.Events = nil
		for _, e := range tr.Events {
			if re.MatchString(e.Entry) {
				c.Events = append(c.Events, e)
			}
		}
		out[i] = &c
	}
	return out
}

// NoiseFloor is the growth that counts as unchanged when the handling
// goroutine made no delayed call: scheduling and garbage collection on a
// busy machine move a response by a few milliseconds.
const NoiseFloor = 25 * time.Millisecond

// verdict judges one row. The response grew by about calls x delay: on the
// critical path (at least half of it, since the delay after the last
// recorded call falls outside the span); grew by less than a fifth of it,
// or by less than NoiseFloor (or a fifth of its plain time) when the
// handling goroutine made no delayed call: off the path; anything else:
// partly.
func verdict(r Row) string {
	if r.Expected == 0 {
		if r.Growth < NoiseFloor || r.Growth < r.Plain/5 {
			return Off
		}
		return Partly
	}
	ratio := float64(r.Growth) / float64(r.Expected)
	switch {
	case ratio >= 0.5:
		return Critical
	case ratio < 0.2:
		return Off
	}
	return Partly
}
