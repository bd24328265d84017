package prioritize

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// runFilter selects sub-traces by their labels the way go test -run
// selects tests by their names, so that the pattern given to go test
// (or to suncat test) picks the same tests' sub-traces here.
//
// The pattern is a list of alternatives separated by top-level '|'; each
// alternative is a list of per-level regexps separated by top-level '/'
// ("top-level": not inside [...] or (...), and not escaped by '\'). A
// label, split at every '/' into its levels, matches an alternative when
// each of its levels matches the regexp of the same level, for the levels
// both have: a parent test ("TestSearch") matches "TestSearch/n=4", since
// go test must run it to reach its subtests, and a deeper subtest
// ("TestSearch/n=4/x") matches it too. The regexps are unanchored.
type runFilter struct {
	pattern string
	alts    [][]*regexp.Regexp
}

// compileRun compiles a -run pattern; "" gives nil, which keeps every
// sub-trace.
func compileRun(pattern string) (*runFilter, error) {
	if pattern == "" {
		return nil, nil
	}
	f := &runFilter{pattern: pattern}
	alts := splitRun(pattern)
	for ai, alt := range alts {
		var levels []*regexp.Regexp
		for li, src := range alt {
			// go test rewrites each element as it rewrites subtest
			// names (spaces to '_', unprintable runes escaped), so that
			// a pattern can be copied from the name given to t.Run.
			src = sanitizeName(src)
			re, err := regexp.Compile(src)
			if err != nil {
				where := fmt.Sprintf("level %d (%q)", li+1, src)
				if len(alts) > 1 {
					where = fmt.Sprintf("alternative %d, %s", ai+1, where)
				}
				return nil, optionError("Run", "%q: %s: %w", pattern, where, err)
			}
			levels = append(levels, re)
		}
		f.alts = append(f.alts, levels)
	}
	return f, nil
}

// match reports whether a sub-trace labelled label is kept.
func (f *runFilter) match(label string) bool {
	if f == nil {
		return true
	}
	// Both sides are rewritten alike: test names already are, and the
	// labels of other splits ("episode 2") then match "episode 2" too.
	label, _, _ = BenchN(label) // a benchmark's b.N is no part of its name
	names := strings.Split(sanitizeName(label), "/")
	for _, levels := range f.alts {
		ok := true
		for i, name := range names {
			if i >= len(levels) {
				break
			}
			if !levels[i].MatchString(name) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// splitRun cuts a -run pattern into alternatives at top-level '|' and each
// alternative into levels at top-level '/'. Brackets are counted so that
// "[/|]" stays one class; parentheses are counted outside brackets so that
// "(a|b)" stays one group; a backslash protects the byte after it. An
// unmatched ']' counts for nothing, as in go test.
func splitRun(s string) [][]string {
	var alts [][]string
	var levels []string
	brackets, parens := 0, 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++ // the escaped byte is never a separator
		case '[':
			brackets++
		case ']':
			if brackets > 0 {
				brackets--
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '/', '|':
			if brackets != 0 || parens != 0 {
				continue
			}
			levels = append(levels, s[start:i])
			start = i + 1
			if c == '|' {
				alts = append(alts, levels)
				levels = nil
			}
		}
	}
	levels = append(levels, s[start:])
	return append(alts, levels)
}

// sanitizeName rewrites s as the testing package rewrites the name given
// to t.Run: white space becomes '_' and unprintable runes their Go escape.
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// noRunMatch is the error for a -run pattern that keeps no sub-trace: it
// names the first few distinct labels there are.
func noRunMatch(pattern string, labels []SubTrace) error {
	var have []string
	seen := map[string]bool{}
	for _, l := range labels {
		if !seen[l.Label] {
			seen[l.Label] = true
			have = append(have, l.Label)
		}
	}
	more := ""
	if len(have) > 8 {
		more = fmt.Sprintf(", ... (%d in all)", len(have))
		have = have[:8]
	}
	return optionError("Run", "%q matches no sub-trace; labels are: %s%s", pattern, strings.Join(have, ", "), more)
}
