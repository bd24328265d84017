package prioritize

import (
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The words of hints and notes follow the kinds of event recorded
// (getter calls, field reads, calls chosen by -calls), and a hint never
// suggests a flag the trace was recorded with.

// recorded is what a set of events holds: their kinds ("getter",
// "read", "call") and the -calls sets or patterns of the calls.
// A loop's turn (-loops) is recorded as a read, but is no field read:
// turns says there were some, apart from kinds.
type recorded struct {
	kinds map[tracefmt.EventKind]bool
	sets  map[string]bool
	turns bool
}

func recordedOf(gs []tracefile.Getter) recorded {
	r := recorded{kinds: map[tracefmt.EventKind]bool{}, sets: map[string]bool{}}
	for _, g := range gs {
		k := g.EventKind()
		if g.IsTurn() {
			r.turns = true
			continue
		}
		r.kinds[k] = true
		if k == tracefmt.KindCall {
			_, set, _ := strings.Cut(g.Field, ":")
			for _, s := range strings.Split(set, ",") {
				r.sets[s] = true
			}
		}
	}
	return r
}

// recordedIn is what the summary's terminals hold.
func recordedIn(s *Summary) recorded {
	var gs []tracefile.Getter
	for _, g := range s.Groups {
		for _, t := range g.Terminals {
			gs = append(gs, t.Getter)
		}
	}
	return recordedOf(gs)
}

// noun names one event of these kinds: "getter call", "field read",
// "call", "loop turn", or "event" for several kinds (none: "getter
// call").
func (r recorded) noun() string {
	if n := len(r.kinds); n > 1 || n == 1 && r.turns {
		return "event"
	}
	switch {
	case r.turns:
		return "loop turn"
	case r.kinds[tracefmt.KindRead]:
		return "field read"
	case r.kinds[tracefmt.KindCall]:
		return "call"
	}
	return "getter call"
}

// flagHint is "-reads records field reads, -calls sql database queries"
// without the flags these events were recorded with; "" when both were.
func (r recorded) flagHint() string {
	var hints []string
	if !r.kinds[tracefmt.KindRead] {
		hints = append(hints, "-reads records field reads")
	}
	if !r.sets["sql"] {
		hints = append(hints, "-calls sql database queries")
	}
	return strings.Join(hints, ", ")
}

// EventWords names the events of a summary in the plural: "getter
// calls", "field reads", "calls", "loop turns", or "events" of several
// kinds.
func EventWords(s *Summary) string {
	return recordedIn(s).noun() + "s"
}
