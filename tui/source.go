package tui

// The viewer reads a prepared Performance Summary through the small
// interface below, so that tests can feed it an in-memory summary and the
// viewer does not depend on how a trace becomes a summary: it prints the
// notations the summary prepared (Item.Notation, Terminal.Counts, ...)
// rather than formatting counts itself. The adapter from prioritize's
// Summary is in prioritize.go, the only file of the viewer that imports
// prioritize.

// Summary is the Performance Summary the viewer shows. The viewer calls it
// from its update loop only, never concurrently.
type Summary interface {
	// Groups returns the goroutine groups, the one to show first at 0.
	Groups() []Group
	// Patterns returns group g's repetition patterns in the order of the
	// sort key (one of SortKeys).
	Patterns(g int, sortBy string) []Pattern
	// Summarized returns group g's Summarized Grammar, one rule per line:
	// items whose largest count is below min elided to "...", counts shown
	// as their maximum (C^<=6) unless detail is set.
	Summarized(g int, min int, detail bool) []string
	// Values returns, for each sub-trace of group g, the distinct values
	// the terminals with these letters returned in it, with counts: what
	// repeated in each repetition of a pattern.
	Values(g int, letters []string) [][]Value
	// SortKeys returns the orders Patterns accepts, the default first; s
	// cycles them.
	SortKeys() []string
	// Findings returns the call sites that grow with the input size, over
	// all goroutine groups, ranked.
	Findings() Findings
}

// Findings say which call sites grow with the input size.
type Findings struct {
	Sizes  string // one line: the sizes and where they came from, the target of the predictions
	Target string // the size predictions are made at: "40"
	Time   string // one line: how the repeated action's time grows ("" when unknown)
	None   string // one line when no site grows (or none can be classified); "" when some does
	Sites  []Site // the findings (one per defect, named by its top site), ranked
	// Mixed says, when the labels' sizes are those of several actions,
	// which, and how to keep one ("" when they name one).
	Mixed string
	// Apart says when the sub-traces share few call sites, as builds
	// whose lines moved do ("" otherwise).
	Apart string
	// Unseen says when the time grows faster than every finding: what
	// grows records nothing ("" otherwise).
	Unseen string
	// Jump names the call sites whose counts rise at the largest size
	// only, which are no finding ("" for none).
	Jump string
	// Uneven names those whose counts rise and fall unevenly, which are
	// no finding either ("" for none).
	Uneven string
}

// A Site is one getter called from one place in the code, with how its
// calls grow.
type Site struct {
	Class     string // growth class: "linear", "quadratic", ...
	Fit       string // how well the class fits: "exponent 1.02, R^2 0.998"
	Counts    []int  // calls in each sub-trace
	Predicted string // the predicted count at the target size: "1234"
	// Prediction says it with its uncertainty: "532..1181 at 40 (linear
	// or n log n)", as prioritize's renderer words it; "" for none.
	Prediction string
	Name       string  // short getter name: "(*Stop).Name"
	Getter     string  // full getter name, as Terminal.Getter
	Where      string  // the frame that sets the site apart: "main.(*app).open (main.go:83)"
	Stack      []Frame // the site's stack, getter first, down to that frame
	Value      Value   // the value it returned most often
	Covers     string  // a finding of several sites: "3 getters, 1 caller: ..."; "" for one
	Clock      string  // a finding paced by a clock: prioritize.ClockText; "" when not
	// Group and Letters are the terminals of the site: group Group's
	// terminals with these letters.
	Group   int
	Letters []string
	// Family is the test family the site was fitted in, for the
	// findings of a test suite ("TestFind", "BenchmarkSort, per op"),
	// FamilySizes its sizes and FamilyTime how its time grows; "" for
	// the findings of a whole run.
	Family, FamilySizes, FamilyTime string
}

// Kinds are the classifications of a pattern, in the order f cycles them.
var Kinds = []string{"increasing", "varying", "decreasing", "constant"}

// A Group is the summary of one goroutine group.
type Group struct {
	Name      string     // the goroutine group: its entry function, "*" for all
	Header    string     // one line: "goroutine main.main: 291 events in 4 sub-traces"
	SubTraces []string   // sub-trace labels, in order
	Terminals []Terminal // a, b, c, ... in order of first appearance
	Rules     []Rule     // the Full Grammar: S first, then its rules in print order
	// MorePatterns is how many patterns the summary did not keep
	// beyond those Patterns returns (suncat summary -top keeps more).
	MorePatterns int
}

// A Rule is a rule of the Full Grammar.
type Rule struct {
	Name  string // "S", "A", ...
	Items []Item
	// More is how many items the summary left out after Items (suncat
	// view -top keeps more); Covers, when it did, are the letters of
	// the terminals the whole rule derives, which Items alone may miss.
	More   int
	Covers []string
}

// An Item is one repetition pattern on a rule's right-hand side.
type Item struct {
	Sym      string // terminal letter or nonterminal name
	Terminal bool
	Counts   []int  // distinct repetition counts, in order of first appearance
	Notation string // the symbol with its counts: "C^6|3|5|4"
	Max      string // as the Summarized Grammar shows it by default: "C^<=6"
}

// A Terminal is an abstract event: one call stack of one getter.
type Terminal struct {
	Letter string  // "a"
	Name   string  // short getter name: "(*Stop).Name"
	Getter string  // full getter name for suncat delay: "example.com/m.(*Stop).Name"; "" if unknown
	Field  string  // what the getter returns: "name"
	Hooked bool    // a call recorded inside the standard library, -calls sql or http (tracefmt.Getter.HookedCall)
	Frames []Frame // the call stack, Frames[0] is the getter
	Where  string  // its call site, told apart from the group's others (prioritize.Wheres); "" to describe it from Frames
	Total  int
	// Subs are its calls and values in the sub-traces it occurs in, by
	// Sub, of NSub (its group's); PerSub and BySub spread them over all.
	Subs   []SubValues
	NSub   int
	Counts string  // its Count Summary entry: "a^4|5|6|7"
	Values []Value // distinct values, in order of first appearance
}

// SubValues are a terminal's calls and distinct values in one sub-trace.
type SubValues struct {
	Sub    int // index in Group.SubTraces
	Calls  int
	Values []Value
}

// PerSub returns the terminal's calls in each sub-trace (a new slice).
func (t *Terminal) PerSub() []int {
	out := make([]int, t.NSub)
	for _, c := range t.Subs {
		out[c.Sub] = c.Calls
	}
	return out
}

// BySub returns the terminal's distinct values in each sub-trace (nil
// where it has none), a new slice.
func (t *Terminal) BySub() [][]Value {
	out := make([][]Value, t.NSub)
	for _, c := range t.Subs {
		out[c.Sub] = c.Values
	}
	return out
}

// A Frame is one frame of a call stack.
type Frame struct {
	Func, File string
	Line       int
}

// A Value is a string a getter returned and how often.
type Value struct {
	Value string
	Count int
}

// A Pattern is a repetition pattern (an item of a rule), classified.
type Pattern struct {
	Symbol    string
	Terminal  bool
	Rule      string // the rule it is an item of
	Position  int    // its index in that rule
	Counts    []int  // distinct counts, in order of first appearance
	Notation  string // the symbol with its counts: "a^4|5|6|7"
	Series    []int  // the counts it is classified on, one per sub-trace (or observation)
	Kind      string // one of Kinds
	Max       int
	Trend     float64  // least-squares slope per repetition
	Terminals []string // letters of the terminals it covers
}
