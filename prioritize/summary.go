package prioritize

import (
	"fmt"
	"strings"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// SchemaVersion is the version of the JSON form of a Summary.
const SchemaVersion = 2

// Options control how a trace becomes a summary.
type Options struct {
	Split      string // "marks", "idle=DURATION", "at=GETTER", "none"; "" chooses marks or none
	Frames     int    // keep the top N frames of each stack; 0 keeps all
	Goroutines string // "each" (default), "all", or a regexp over entry functions
	// Run keeps only the sub-traces whose label matches, by the rules of
	// go test -run (per-level regexps separated by '/'); "" keeps all.
	Run string
	// Findings: Sizes gives each sub-trace's input size (default: the
	// last number of every label, else positions); At is the size to
	// predict at (0: ten times the largest); Stacks is StacksFolded (the
	// default) or StacksWhole.
	Sizes  []float64
	At     float64
	Stacks string
	// NoPatterns leaves every Group's Patterns nil, for a caller that
	// shows none (suncat summary's findings and grammars): they cost a
	// pass over every place of the grammar, millions for a -reads trace.
	NoPatterns bool
	// Patterns is how many patterns of each group to keep, the first in
	// the default priority order (Group.MorePatterns counts the rest);
	// 0 keeps DefaultPatterns, a negative number all of them.
	Patterns int
	// Items is how many items of each rule of a Group's Grammar to keep,
	// and observations of each item (grammar.Cut: the Grammar counts
	// what it leaves out); 0 keeps DefaultItems, a negative number all.
	// The patterns and Group.Covers are made from the whole grammar.
	Items int
	// NoGrammar leaves every Group's Grammar nil, and its Patterns (they
	// are the grammar's), for a caller that shows neither (suncat
	// summary's findings, pprof, report): the grammar keeps the call
	// stack of every event, 4 bytes an event while a trace is read and
	// about 30 while it is compressed, where the findings need only the
	// counts and values of each call site.
	NoGrammar bool
	// Sources reads the Go files that the frames name, for the findings
	// (the loop a site is called in, Site.Responsible) and the hint of a
	// suite without sizes (the name of a package); nil reads none: no
	// loop is found and package names are guessed from import paths.
	Sources *Sources
}

// A Summary is the Performance Summary of one or more traces.
type Summary struct {
	Version int      `json:"version"`
	Traces  []string `json:"traces"`
	Split   string   `json:"split"`
	Run     string   `json:"run,omitempty"` // Options.Run, when given
	Groups  []*Group `json:"groups"`
	// Findings: the call sites that grow with the input size (over all
	// groups); see Findings.
	Findings *Findings `json:"findings"`
	// fitted: the options Findings were fitted with (buildFindings);
	// nil when not known.
	fitted *Options
	// ends: for each sub-trace, the time of its end mark (a whole run's,
	// -split none: main returned; a marked one's: its span ended), 0
	// where none; the time of the sub-trace reaches it (subTraceTimes).
	ends []int64
}

// A Group is the summary of the events of one goroutine group.
type Group struct {
	Goroutine string      `json:"goroutine"` // entry function; "*" for all; the regexp of -goroutines REGEXP
	Events    int         `json:"events"`    // in sub-traces
	Left      int         `json:"left"`      // events outside any sub-trace (before the first mark, ...)
	SubTraces []SubTrace  `json:"subTraces"`
	Terminals []*Terminal `json:"terminals"`
	// Grammar is the grammar as shown: each rule's first
	// Options.Items items (grammar.Cut; Grammar.Left counts the rest).
	Grammar  *grammar.Grammar `json:"grammar"`
	Patterns []Pattern        `json:"patterns"`
	// MorePatterns is how many patterns the group has beyond those kept
	// (Options.Patterns); absent when none.
	MorePatterns int    `json:"morePatterns,omitempty"`
	morePatterns [4]int // the same by kind
	// whole is the grammar before it was cut; nil when nothing was
	// left out.
	whole *grammar.Grammar
}

// A SubTrace is one repetition of the user's action.
type SubTrace struct {
	Label  string `json:"label"`
	Events int    `json:"events"`
	Start  int64  `json:"start"` // ns since the trace started
	End    int64  `json:"end"`
}

// A Terminal is an abstract event: one call stack of one getter.
//
// Its calls and values in each sub-trace are kept for the sub-traces it
// occurs in only (Subs, Calls, ValuesIn): a suite of 43,000 subtests
// has thousands of terminals, each in a hundred of them. Its JSON form
// has them for every sub-trace (perSub, bySub; doc/summary.md).
type Terminal struct {
	Letter string            `json:"letter"`
	Name   string            `json:"name"` // the getter: "(*Stop).Name"
	Getter tracefile.Getter  `json:"getter"`
	Frames []tracefile.Frame `json:"frames"` // Frames[0] is the getter
	Total  int               `json:"total"`
	Values []ValueCount      `json:"values"` // distinct values, first appearance order
	// Unkept counts the calls whose values are not in Values: a call
	// site keeps its first 1,024 distinct values in each trace part
	// (maxCellValues), and counts the calls of the others.
	Unkept int `json:"unkept,omitempty"`
	// Cut says that its stack was cut at the writer's depth limit
	// (tracefmt.MaxFrames return addresses, the innermost kept): its
	// outer frames are not known.
	Cut bool `json:"cut,omitempty"`
	// subs are its calls and values in the sub-traces it occurs in, by
	// Sub; nsub is the number of sub-traces of its group.
	subs []SubCount
	nsub int
}

// Unkept counts the terminals that returned values that were not kept,
// and those values' calls, over all groups: what the summary left out
// of the values (Terminal.Unkept).
func (s *Summary) Unkept() (terminals, calls int) {
	for _, g := range s.Groups {
		for _, t := range g.Terminals {
			if t.Unkept > 0 {
				terminals++
				calls += t.Unkept
			}
		}
	}
	return terminals, calls
}

// A ValueCount is a string value and how often it was returned.
type ValueCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Caller returns the frame that called the getter, if any; for a call
// recorded inside the standard library, the program's frame that made it.
func (t *Terminal) Caller() (tracefile.Frame, bool) {
	if len(t.Frames) < 2 {
		return tracefile.Frame{}, false
	}
	if hookedCall(t.Getter) {
		// A call recorded inside database/sql or net/http: its caller
		// is the program's code that made it, not the standard
		// library's or a dependency's frames on the way.
		for _, f := range t.Frames[1:] {
			if !isStdFrame(f) && !depFrame(f) {
				return f, true
			}
		}
	}
	return t.Frames[1], true
}

func renumber(gr *grammar.Grammar, index []int32) {
	fix := func(rps []grammar.RP) {
		for i := range rps {
			for k := range rps[i].Obs {
				if o := &rps[i].Obs[k]; o.Sub >= 0 && int(o.Sub) < len(index) {
					o.Sub = index[o.Sub]
				}
			}
		}
	}
	fix(gr.Start)
	for i := range gr.Rules {
		fix(gr.Rules[i].Body)
	}
}

func shortFunc(f string) string {
	if i := strings.LastIndex(f, "/"); i >= 0 {
		f = f[i+1:]
	}
	return f
}

// letter returns the i'th terminal name: a..z, aa, ab, ...
func letter(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('a' + i%26)}, b...)
		i = i/26 - 1
		if i < 0 {
			return string(b)
		}
	}
}

// checkAt reports an at=GETTER split whose getter is in none of the
// traces' getter tables (a typo would otherwise leave every event outside
// the sub-traces), naming the getters there are.
func checkAt(split string, traces ...*tracefile.Trace) error {
	name, ok := strings.CutPrefix(split, "at=")
	if !ok {
		return nil
	}
	var have []string
	for _, tr := range traces {
		for _, g := range tr.Getters {
			if g.ID == 0 {
				continue
			}
			if MatchGetter(g, name) {
				return nil
			}
			if n := g.Name(); !contains(have, n) {
				have = append(have, n)
			}
		}
	}
	if len(have) == 0 {
		return nil // nothing recorded (an empty trace): no sub-traces, no error
	}
	more := ""
	if len(have) > 8 {
		more = fmt.Sprintf(", ... (%d in all)", len(have))
		have = have[:8]
	}
	return optionError("Split", "%s: no getter is %s; the trace has %s%s", split, name, strings.Join(have, ", "), more)
}

// MatchGetter reports whether name designates g: "Stop.Name",
// "(*Stop).Name", "pkg.(*Stop).Name" or the full import path form.
func MatchGetter(g tracefile.Getter, name string) bool {
	bare := strings.TrimPrefix(g.Receiver, "*")
	if i := strings.IndexByte(bare, '['); i >= 0 {
		bare = bare[:i]
	}
	forms := []string{g.Name(), g.Method}
	if bare != "" {
		forms = append(forms, bare+"."+g.Method)
	}
	pkg := g.Package[strings.LastIndex(g.Package, "/")+1:]
	for _, f := range forms[:] {
		forms = append(forms, pkg+"."+f, g.Package+"."+f)
	}
	for _, f := range forms {
		if f == name {
			return true
		}
	}
	return false
}
