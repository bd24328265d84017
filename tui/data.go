package tui

import (
	"fmt"
	"strings"
)

// groupData indexes one goroutine group for the views: symbols to
// terminals and rules, what each symbol covers, where it appears. The
// search text of a terminal is built the first time a search needs it, so
// opening a big summary does not pay for it.
type groupData struct {
	sum      Summary
	gi       int // the group's index in sum
	g        *Group
	terms    map[string]int // letter -> index in g.Terminals
	rules    map[string]int // name -> index in g.Rules
	patterns map[patPos]*Pattern
	equal    map[[2]string]*Pattern // rule, notation -> the pattern of equal places
	covers   map[string][]string
	search   map[string]string // letter -> lower-case getter, frames, values
	vals     map[string][][]Value
}

type patPos struct {
	rule string
	pos  int
}

// searchValues bounds how many distinct values of a terminal a search
// looks at.
const searchValues = 1000

func newGroupData(s Summary, gi int, g *Group) *groupData {
	d := &groupData{
		sum:      s,
		gi:       gi,
		g:        g,
		terms:    make(map[string]int, len(g.Terminals)),
		rules:    make(map[string]int, len(g.Rules)),
		patterns: map[patPos]*Pattern{},
		equal:    map[[2]string]*Pattern{},
		covers:   map[string][]string{},
		search:   map[string]string{},
		vals:     map[string][][]Value{},
	}
	for i, t := range g.Terminals {
		d.terms[t.Letter] = i
	}
	for i, r := range g.Rules {
		d.rules[r.Name] = i
	}
	by := ""
	if keys := s.SortKeys(); len(keys) > 0 {
		by = keys[0]
	}
	ps := s.Patterns(gi, by)
	for i := range ps {
		d.patterns[patPos{ps[i].Rule, ps[i].Position}] = &ps[i]
		if k := [2]string{ps[i].Rule, ps[i].Notation}; d.equal[k] == nil {
			d.equal[k] = &ps[i]
		}
	}
	return d
}

func (d *groupData) terminal(letter string) *Terminal {
	if i, ok := d.terms[letter]; ok {
		return &d.g.Terminals[i]
	}
	return nil
}

func (d *groupData) rule(name string) *Rule {
	if i, ok := d.rules[name]; ok {
		return &d.g.Rules[i]
	}
	return nil
}

// pattern returns the pattern of the item at pos of rule: its own, or
// that of an equal item of the rule (a summary makes one pattern of the
// places of a rule that print the same); nil when not kept.
func (d *groupData) pattern(rule string, pos int) *Pattern {
	if p := d.patterns[patPos{rule, pos}]; p != nil {
		return p
	}
	if r := d.rule(rule); r != nil && pos >= 0 && pos < len(r.Items) {
		return d.equal[[2]string{rule, r.Items[pos].Notation}]
	}
	return nil
}

// cover returns the letters of the terminals a symbol derives, in order of
// first appearance in its expansion.
func (d *groupData) cover(sym string) []string {
	if d.terminal(sym) != nil {
		return []string{sym}
	}
	if c, ok := d.covers[sym]; ok {
		return c
	}
	d.covers[sym] = nil // guards against a cycle in a malformed grammar
	var out []string
	seen := map[string]bool{}
	if r := d.rule(sym); r != nil && r.Covers != nil {
		out = r.Covers
	} else if r != nil {
		for _, it := range r.Items {
			for _, l := range d.cover(it.Sym) {
				if !seen[l] {
					seen[l] = true
					out = append(out, l)
				}
			}
		}
	}
	d.covers[sym] = out
	return out
}

// getters returns the distinct full getter names of terminals.
func (d *groupData) getters(letters []string) []string {
	var out []string
	for _, l := range letters {
		if t := d.terminal(l); t != nil && t.Getter != "" && !contains(out, t.Getter) {
			out = append(out, t.Getter)
		}
	}
	return out
}

// getterNames returns the distinct short getter names of terminals.
func (d *groupData) getterNames(letters []string) string {
	var out []string
	for _, l := range letters {
		if t := d.terminal(l); t != nil && !contains(out, t.Name) {
			out = append(out, t.Name)
			if len(out) == 4 {
				out = append(out, "…")
				break
			}
		}
	}
	return strings.Join(out, ", ")
}

func (d *groupData) searchText(letter string) string {
	if s, ok := d.search[letter]; ok {
		return s
	}
	t := d.terminal(letter)
	if t == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(t.Name + "\n" + t.Getter + "\n")
	for _, f := range t.Frames {
		fmt.Fprintf(&b, "%s %s:%d\n", f.Func, f.File, f.Line)
	}
	for i, v := range t.Values {
		if i == searchValues {
			break
		}
		b.WriteString(v.Value + "\n")
	}
	s := strings.ToLower(b.String())
	d.search[letter] = s
	return s
}

// position returns the index of sym's first occurrence in rule (0 if none).
func (d *groupData) position(rule, sym string) int {
	if r := d.rule(rule); r != nil {
		for i, it := range r.Items {
			if it.Sym == sym {
				return i
			}
		}
	}
	return 0
}

// values returns the values of terminals per sub-trace, cached.
func (d *groupData) values(letters []string) [][]Value {
	k := strings.Join(letters, " ")
	if vs, ok := d.vals[k]; ok {
		return vs
	}
	vs := d.sum.Values(d.gi, letters)
	d.vals[k] = vs
	return vs
}

// An occurrence is a place where a symbol appears on a right-hand side.
type occurrence struct {
	rule string
	pos  int
}

// occurrences lists where sym appears, rules in print order.
func (d *groupData) occurrences(sym string) []occurrence {
	var out []occurrence
	for _, r := range d.g.Rules {
		for i, it := range r.Items {
			if it.Sym == sym {
				out = append(out, occurrence{r.Name, i})
			}
		}
	}
	return out
}

// path returns the rules from S down to the rule named name, each the
// first rule (in print order) that mentions the next: the breadcrumb of a
// rule reached without drilling.
func (d *groupData) path(name string) []string {
	p := []string{name}
	seen := map[string]bool{name: true}
	for name != "S" {
		occ := d.occurrences(name)
		if len(occ) == 0 || seen[occ[0].rule] {
			break
		}
		name = occ[0].rule
		seen[name] = true
		p = append([]string{name}, p...)
	}
	return p
}

// programDir guesses the directory of the traced program's main package:
// that of the first stack frame in package main. "" if none.
func (d *groupData) programDir() string {
	for _, t := range d.g.Terminals {
		for _, f := range t.Frames {
			if strings.HasPrefix(f.Func, "main.") && f.File != "" {
				return dirOf(f.File)
			}
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
