package prioritize

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// IsSuite reports whether a summary's sub-traces are those of a test
// suite ('suncat test'): every label names a test, benchmark, fuzz test
// or example.
func IsSuite(s *Summary) bool {
	if len(s.Groups) == 0 || len(s.Groups[0].SubTraces) == 0 {
		return false
	}
	for _, st := range s.Groups[0].SubTraces {
		if !IsTestLabel(st.Label) {
			return false
		}
	}
	return true
}

// FamiliesText renders the findings of a suite per family, family name
// first, in the order given (Families ranks them), top growing sites
// each (all when top ≤ 0); then the tests that give no class and why;
// when no family has sizes, the hint NoSizesHint gives, which reads a
// package clause through src.
func FamiliesText(s *Summary, fams []*Family, unsized []Unsized, top int, src *Sources) string {
	var b strings.Builder
	if len(fams) == 0 {
		b.WriteString(NoSizesHint(s, unsized, src))
		return b.String()
	}
	b.WriteString("== " + FamiliesHeading(fams, unsized) + "\n")
	for _, f := range fams {
		b.WriteString(FamilyText(f, top))
	}
	b.WriteString(UnsizedText(unsized, 8))
	return b.String()
}

// FamiliesHeading says how many families grow, and how many tests give
// no class: "Findings per test family: 2 of 3 families grow, ranked by
// their top finding; 4 other test(s) give no class".
func FamiliesHeading(fams []*Family, unsized []Unsized) string {
	growing := 0
	for _, f := range fams {
		if len(f.Findings.Findings) > 0 {
			growing++
		}
	}
	h := fmt.Sprintf("Findings per test family: %d of %d families grow, ranked by their top finding", growing, len(fams))
	if len(unsized) > 0 {
		h += fmt.Sprintf("; %d other test(s) give no class", len(unsized))
	}
	return h
}

// FamilyName is a family's name as the findings show it: a benchmark's
// with ", per op".
func FamilyName(fam *Family) string {
	if fam.Bench {
		return fam.Name + ", per op"
	}
	return fam.Name
}

// FamilyText renders one family: a heading with its name, then its top
// growing sites and its time (per op for a benchmark), and whether that
// grows faster than every finding (UnseenText).
func FamilyText(fam *Family, top int) string {
	var b strings.Builder
	f := fam.Findings
	name := FamilyName(fam)
	unseen := UnseenText(f)
	if none := NoneText(f); none != "" {
		fmt.Fprintf(&b, "-- %s: %s\n", name, none)
		if unseen != "" {
			b.WriteString("    " + FamilyTimeText(fam) + "\n        " + unseen + "\n")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "-- %s: %s\n", name, GrowText(f))
	b.WriteString(FindingsList(f, top))
	b.WriteString("    " + FamilyTimeText(fam) + "\n")
	if unseen != "" {
		b.WriteString("        " + unseen + "\n")
	}
	return b.String()
}

// FamilyTimeText is TimeText for a family: a benchmark's time is per op
// (each size's run divided by its b.N).
func FamilyTimeText(fam *Family) string {
	if fam.Bench {
		if fam.Findings.ToEnd {
			return timeText(fam.Findings, "time per op (first call to the run's end, over b.N)")
		}
		return timeText(fam.Findings, "time per op (first to last call, over b.N)")
	}
	return TimeText(fam.Findings)
}

// FamilyLine is a family in one line, as suncat test's closing lines
// show it: its name, then its top finding as FindingLine writes it, or
// why nothing grows.
func FamilyLine(fam *Family) string {
	f := fam.Findings
	if len(f.Findings) == 0 {
		return FamilyName(fam) + ": " + NoneText(f)
	}
	return FamilyName(fam) + ": " + FindingLine(f, f.Findings[0])
}

// UnsizedText lists the tests that give no class, the first max of
// them by name with the reason (tests whose subtests are indexes first).
func UnsizedText(unsized []Unsized, max int) string {
	if len(unsized) == 0 {
		return ""
	}
	var idx, rest []Unsized
	for _, u := range unsized {
		if u.Reason == NoSizesIndexes {
			idx = append(idx, u)
		} else {
			rest = append(rest, u)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- no class for %d test(s) without sizes:\n", len(unsized))
	shown := 0
	for _, u := range append(idx, rest...) {
		if shown == max {
			fmt.Fprintf(&b, "    ... and %d more\n", len(unsized)-shown)
			break
		}
		fmt.Fprintf(&b, "    %s: %s\n", u.Name, u.Why())
		shown++
	}
	return b.String()
}

// Why words why u gives no sizes: "no subtests", "subtests 0..4 are
// indexes, not sizes", "no sizes in its subtests' names".
func (u Unsized) Why() string {
	switch u.Reason {
	case NoSizesNoSubs:
		return "no subtests"
	case NoSizesIndexes:
		return "subtests " + u.Indexes + " are indexes, not sizes"
	}
	return "no sizes in its subtests' names"
}

// MarshalJSON writes u as summary -json shows it: its name and why.
func (u Unsized) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name string `json:"name"`
		Why  string `json:"why"`
	}{u.Name, u.Why()})
}

// UnsizedLine counts the tests that give no class in one line, as
// suncat test's closing lines do: "3 other test(s) give no class: no
// sizes in their names (in TestA, TestB, indexes)".
func UnsizedLine(unsized []Unsized) string {
	var idx []string
	for _, u := range unsized {
		if u.Reason == NoSizesIndexes {
			idx = append(idx, u.Name)
		}
	}
	line := fmt.Sprintf("%d other test(s) give no class: no sizes in their names", len(unsized))
	if len(idx) > 0 {
		line += " (in " + Names(idx, 3, "more") + ", indexes)"
	}
	return line
}

// NoSizesHeading is the first line of NoSizesHint, without "== ": the
// events are named as the summary s recorded them (nil: getter calls).
func NoSizesHeading(s *Summary, unsized []Unsized) string {
	words := "getter calls"
	if s != nil {
		words = EventWords(s)
	}
	return fmt.Sprintf("Findings: no test family has sizes (%d test(s) recorded %s; no subtest name carries a size such as n=10, size_100 or 1000), so nothing is fitted", len(unsized), words)
}

// NoSizesHint says that no family has sizes, and shows what to write: a
// sized table test (or sub-benchmark) for the package of the getter
// called most, and -sizes for a single test. The package's name is the
// one in the package clause of the getter's file, read through src
// (nil: guessed from the import path).
func NoSizesHint(s *Summary, unsized []Unsized, src *Sources) string {
	var b strings.Builder
	b.WriteString("== " + NoSizesHeading(s, unsized) + "\n")
	b.WriteString(UnsizedText(unsized, 5))
	pkg, getter, calls, file, g := topGetter(s)
	if pkg == "" {
		return b.String()
	}
	name := src.packageName(file, pkg)
	fmt.Fprintf(&b, "    suncat fits a test family: a table test or sub-benchmark whose subtests are named by a size.\n")
	verb, noun := "called", "calls"
	switch {
	case g.IsTurn():
		verb, noun = "turned", "turns"
	case g.EventKind() == tracefmt.KindRead:
		verb, noun = "read", "reads"
	}
	fmt.Fprintf(&b, "    %s was %s most (%s %s), from %s; in a _test.go file of package %s:\n\n", getter, verb, Number(float64(calls)), noun, pkg, name)
	b.WriteString(`	func TestGrowth(t *testing.T) {
		for _, n := range []int{10, 100, 1000, 10000} {
			t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
				// make an input of size n; call the code that calls ` + getter + `
			})
		}
	}

`)
	b.WriteString("    (a benchmark: b.Run(fmt.Sprintf(\"n=%d\", n), func(b *testing.B) { for i := 0; i < b.N; i++ { ... } }), then suncat test -bench Growth)\n")
	b.WriteString("    A single test run once per size (one trace each): suncat summary -split none -sizes 10,100,1000,10000 TRACE1 ... TRACE4\n")
	return b.String()
}

// topGetter returns the getter called (or field read) most over the
// summary, its package, its calls, the file that declares it and its
// getter (what kind of event).
func topGetter(s *Summary) (pkg, name string, calls int, file string, g tracefmt.Getter) {
	if s.Findings == nil {
		return "", "", 0, "", g
	}
	total := map[string]int{}
	for _, site := range s.Findings.Sites {
		p, f := site.Package, site.Getter.File
		if hookedCall(site.Getter) {
			if p, f = callerPackage(site); p == "" {
				continue
			}
		}
		k := p + "\x00" + site.Name
		total[k] += site.Total
		if total[k] > calls {
			calls = total[k]
			pkg, name, file, g = p, site.Name, f, site.Getter
		}
	}
	return pkg, name, calls, file, g
}

// callerPackage is the package and file of the program's frame nearest
// a call recorded inside the standard library (-calls sql: the test goes
// in the package that queries, never in database/sql); "" when the
// stack has none.
func callerPackage(site *Site) (pkg, file string) {
	for _, fr := range site.Frames[1:] {
		if !isStdFrame(fr) && !depFrame(fr) && !setupFrame(fr) {
			if p := funcPackage(fr.Func); p != "" {
				return p, fr.File
			}
		}
	}
	return "", ""
}

// majorSuffix is a module's major version at the end of an import path
// (/v3) or of a gopkg.in name (yaml.v3).
var majorSuffix = regexp.MustCompile(`([/.])v[0-9]+$`)

// packageName guesses a package's name from its import path, as most
// are named: the last element without its major version, "go-" or "-go".
func packageName(importPath string) string {
	name := path.Base(majorSuffix.ReplaceAllString(importPath, ""))
	name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), "-go")
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, name)
}
