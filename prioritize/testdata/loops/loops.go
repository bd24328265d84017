// Package loops is the source of the synthetic traces of
// TestResponsibleGolden: the line numbers below are the frames' lines.
package loops

import "sort"

type T struct{ name, title, id string }

func (t *T) Name() string  { return t.name }
func (t *T) Title() string { return t.title }
func (t *T) ID() string    { return t.id }

// Label is a delegating accessor on the getter's own type.
func (t *T) Label() string { return t.Title() }

// Page delegates to T on another type: a one-line accessor.
type Page struct{ t *T }

func (p *Page) Name() string { return p.t.Label() }

// equal is an equality helper: no loop.
func equal(a, b *T) bool { return a.Name() == b.Name() }

// appendUnique scans every element already present (the loop).
func appendUnique(xs []*T, x *T) []*T {
	for _, y := range xs {
		if equal(y, x) {
			return xs
		}
	}
	return append(xs, x)
}

// build appends each item: quadratic, and the loop that grows per
// activation of build's callee is appendUnique's.
func build(items []*T) (out []*T) {
	for _, it := range items {
		out = appendUnique(out, it)
	}
	return out
}

// sum loops over xs reading three getters; it is called from four
// places.
func sum(xs []*T) int {
	n := 0
	for _, x := range xs {
		n += len(x.Name()) +
			len(x.Title()) +
			len(x.ID())
	}
	return n
}

func a(xs []*T) int { return sum(xs) }
func b(xs []*T) int { return sum(xs) }
func c(xs []*T) int { return sum(xs) }
func d(xs []*T) int { return sum(xs) }

// Node is a tree walked recursively.
type Node struct {
	t    *T
	kids []*Node
}

func walk(n *Node) int {
	s := len(n.t.Name())
	for _, k := range n.kids {
		s += walk(k)
	}
	return s
}

// byName sorts with a comparator: the loop is sort's, the function that
// sorts is responsible.
func byName(xs []*T) {
	sort.Slice(xs, func(i, j int) bool { return xs[i].Name() < xs[j].Name() })
}

// titles reads the titles through two delegating accessors in a loop.
func titles(ps []*Page) (out []string) {
	for _, p := range ps {
		out = append(out, p.Name())
	}
	return out
}

// fields reads a record's title three times: a loop, but over a fixed
// count; the loop that grows is records'.
func fields(r *T) (n int) {
	for i := 0; i < 3; i++ {
		n += len(r.Title())
	}
	return n
}

// records loops over the records, reading each one's ID and fields.
func records(rs []*T) (n int) {
	for _, r := range rs {
		n += len(r.ID())
		n += fields(r)
	}
	return n
}

// scan looks for x among all the records: its loop grows, inside
// dedupe's, which reads each record's ID too.
func scan(rs []*T, x *T) bool {
	for _, r := range rs {
		if r.Name() == x.Name() {
			return true
		}
	}
	return false
}

func dedupe(rs []*T) (n int) {
	for _, r := range rs {
		n += len(r.ID())
		if scan(rs, r) {
			n++
		}
	}
	return n
}

// matchSet and anyMatch loop over one path of one set; chain's loop over
// the routes reads each route's group, then tries its sets: the loop
// that grows is chain's, two loops out (Caddy's routes,
// doc/cases/caddy-reads.md).
func matchSet(set []string, r *T) bool {
	for _, p := range set {
		if p == r.Path() {
			return true
		}
	}
	return false
}

func anyMatch(sets [][]string, r *T) bool {
	for _, set := range sets {
		if matchSet(set, r) {
			return true
		}
	}
	return false
}

func chain(routes []*T, r *T) int {
	for i, rt := range routes {
		if rt.Group() != "" {
			continue
		}
		if anyMatch(rt.Sets, r) {
			return i
		}
	}
	return -1
}

// NameAll is a method of the getter's own type that calls it from a loop
// (a parser's loop over its tokens through its name getter): the loop,
// not a delegating neighbour of the getter.
func (t *T) NameAll(xs []*T) (n int) {
	for _, x := range xs {
		n += len(x.Name())
	}
	return n
}
