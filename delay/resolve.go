package delay

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

// ErrNoSummary is in Resolve's error for a name that can only be a
// terminal or pattern of a summary, when there is none.
var ErrNoSummary = errors.New("no summary was given")

// Resolve returns the ids of the getters that names designate. A name is
// a getter name in any of the forms Stop.Name, (*Stop).Name,
// pkg.(*Stop).Name, example.com/pkg.(*Stop).Name, Name; text found in
// exactly one getter's full form (Cod, model.(*Route)); a regexp over the
// full form (all the getters it matches); or, when sum is not nil, a
// terminal letter (a, b, ...) or a nonterminal (A, B, ...: all its
// terminals) of the summary's first goroutine group. Unknown and
// ambiguous names are errors that start with the name and list the
// candidates.
func Resolve(getters []tracefile.Getter, names []string, sum *prioritize.Summary) ([]uint32, error) {
	if len(names) == 0 {
		return nil, errors.New("no getter chosen")
	}
	seen := map[uint32]bool{}
	var ids []uint32
	add := func(gs []tracefile.Getter) {
		for _, g := range gs {
			if !seen[g.ID] {
				seen[g.ID] = true
				ids = append(ids, g.ID)
			}
		}
	}
	for _, name := range names {
		if sum != nil {
			if gs, ok, err := fromSummary(getters, name, sum); ok {
				if err != nil {
					return nil, err
				}
				add(gs)
				continue
			}
		} else if isSymbol(name) && !matchesAnyExact(getters, name) {
			return nil, fmt.Errorf("%q looks like a terminal or pattern of a summary, but %w", name, ErrNoSummary)
		}
		gs, err := byName(getters, name)
		if err != nil && sum != nil && isSymbol(name) {
			return nil, fmt.Errorf("%q is neither a symbol of the trace's summary (%s) nor a getter (%s)", name, symbols(sum), list(getters))
		}
		if err != nil {
			return nil, err
		}
		add(gs)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

var symbolRE = regexp.MustCompile(`^([a-z]{1,3}|[A-Z]{1,3})$`)

func isSymbol(s string) bool { return symbolRE.MatchString(s) }

func matchesAnyExact(getters []tracefile.Getter, name string) bool {
	for _, g := range getters {
		if prioritize.MatchGetter(g, name) {
			return true
		}
	}
	return false
}

// FullName is a getter's full name: example.com/pkg.(*Stop).Name.
func FullName(g tracefile.Getter) string { return g.Package + "." + g.Name() }

func byName(getters []tracefile.Getter, name string) ([]tracefile.Getter, error) {
	var exact []tracefile.Getter
	for _, g := range getters {
		if prioritize.MatchGetter(g, name) {
			exact = append(exact, g)
		}
	}
	switch {
	case len(exact) == 1:
		return exact, nil
	case len(exact) > 1:
		return nil, fmt.Errorf("%q is ambiguous: it names %s", name, list(exact))
	}
	return byPattern(getters, name)
}

// byPattern is byName for a name that names no getter exactly: text found
// in one getter's full name picks it (when several contain it, they are
// listed and none is picked); otherwise a regexp over the full name picks
// all the getters it matches.
func byPattern(getters []tracefile.Getter, name string) ([]tracefile.Getter, error) {
	var out []tracefile.Getter
	for _, g := range getters {
		if strings.Contains(FullName(g), name) {
			out = append(out, g)
		}
	}
	if len(out) > 1 {
		return nil, fmt.Errorf("%q is ambiguous: %d getters contain it: %s", name, len(out), list(out))
	}
	if len(out) == 0 && regexp.QuoteMeta(name) != name {
		// A name with a getter's parentheses, (*T).M, that compiles as no
		// regexp is a name, not a pattern: said below as one.
		if re, err := regexp.Compile(name); err == nil {
			for _, g := range getters {
				if re.MatchString(FullName(g)) {
					out = append(out, g)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q: no such getter; the getters are: %s", name, list(getters))
	}
	return out, nil
}

func list(gs []tracefile.Getter) string {
	var names []string
	for _, g := range gs {
		names = append(names, FullName(g))
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// fromSummary resolves a terminal letter or a nonterminal of the summary.
// ok is false when name is not a symbol of the summary.
func fromSummary(getters []tracefile.Getter, name string, sum *prioritize.Summary) ([]tracefile.Getter, bool, error) {
	if len(sum.Groups) == 0 || !isSymbol(name) {
		return nil, false, nil
	}
	g := sum.Groups[0]
	letters := g.Covers(name)
	if letters == nil {
		return nil, false, nil
	}
	var out []tracefile.Getter
	for _, l := range letters {
		for _, t := range g.Terminals {
			if t.Letter != l {
				continue
			}
			found := false
			for _, gt := range getters {
				if gt.Package == t.Getter.Package && gt.Receiver == t.Getter.Receiver && gt.Method == t.Getter.Method {
					out = append(out, gt)
					found = true
				}
			}
			if !found {
				return nil, true, notFound(getters, name, l, t.Getter)
			}
		}
	}
	return out, true, nil
}

// notFound is the error for terminal l of the trace, getter g, that the
// program's table does not have: the flag that records its kind of
// event, when the table was made without it, else the program no longer
// has it.
func notFound(getters []tracefile.Getter, name, l string, g tracefile.Getter) error {
	what := KindText(g) + " " + FullName(g)
	if f := Flag(g); f != "" && !hasKind(getters, g) {
		return fmt.Errorf("%q: %s of the trace is %s, recorded with %s: give %s", name, l, what, f, f)
	}
	return fmt.Errorf("%q: %s of the trace is %s, which the program no longer has", name, l, what)
}

// Flag is the flag of suncat instrument (and delay) that records g's
// kind of event: "-reads" for a field read, "-calls sql" for a call
// chosen by the set or pattern sql; "" for a getter.
func Flag(g tracefile.Getter) string {
	switch g.EventKind() {
	case tracefmt.KindRead:
		return "-reads"
	case tracefmt.KindCall:
		_, set, _ := strings.Cut(g.Field, ":") // "call:sql"
		return "-calls " + set
	}
	return ""
}

// KindText names g's kind of event: "getter", "field read", "call".
func KindText(g tracefile.Getter) string {
	switch g.EventKind() {
	case tracefmt.KindRead:
		return "field read"
	case tracefmt.KindCall:
		return "call"
	}
	return "getter"
}

// hasKind reports whether the table records g's kind of event as g was
// recorded: a field read, or a call chosen by the same set or pattern.
func hasKind(getters []tracefile.Getter, g tracefile.Getter) bool {
	for _, t := range getters {
		if t.EventKind() == g.EventKind() && (g.EventKind() == tracefmt.KindRead || t.Field == g.Field) {
			return true
		}
	}
	return false
}

// symbols lists the terminals and nonterminals of the summary's first
// group.
func symbols(sum *prioritize.Summary) string {
	if len(sum.Groups) == 0 {
		return "none"
	}
	var out []string
	for _, t := range sum.Groups[0].Terminals {
		out = append(out, t.Letter)
	}
	for _, r := range sum.Groups[0].Grammar.Rules {
		out = append(out, r.Name)
	}
	return strings.Join(out, " ")
}

// PackageOf returns the import path in a getter's full name
// (example.com/pkg.(*Stop).Name, example.com/pkg.Stop.Name, or
// example.com/pkg.Name), or "" for a name without one: everything before
// the first dot after the last slash, or before ".(" where a pointer
// receiver follows.
func PackageOf(name string) string {
	if i := strings.Index(name, ".("); i > 0 && !strings.Contains(name[:i], "(") {
		return name[:i]
	}
	slash := strings.LastIndex(name, "/")
	if slash < 0 {
		return ""
	}
	dot := strings.Index(name[slash:], ".")
	if dot < 0 {
		return ""
	}
	return name[:slash+dot]
}
