package p

type chain struct {
	kind string
	kid  *chain
}

var seen int

// visit walks a chain with a bare for loop, as graphql-go's visitor
// does: at each node it looks at every ancestor, and at the root once
// a walk.
func visit(root *chain, fn func(*chain)) {
	var anc []*chain
	n := root
	for {
		if n == nil {
			break
		}
		if len(anc) == 0 {
			seen += len(n.kind)
		}
		for _, a := range anc {
			seen += len(a.kind)
		}
		fn(n)
		anc = append(anc, n)
		n = n.kid
	}
}

// again walks the chain a second time, from a callback of the first.
func again(root, n *chain) {
	if n == root {
		visit(root, func(*chain) {})
	}
}

// drive walks the chain once, in a loop of one turn.
func drive(root *chain) {
	for r := 0; r < 1; r++ {
		visit(root, func(n *chain) { again(root, n) })
	}
}

// look reads a node's kind: an observer.
func look(n *chain) { seen += len(n.kind) }

// observe calls each of a fixed list of observers on every node of a
// walk, as graphql-go's parallel visitor calls its rules.
func observe(root *chain, obs []func(*chain)) {
	visit(root, func(n *chain) {
		for _, o := range obs {
			o(n)
		}
	})
}
