package loops

// A tree walk that calls observers at each node (gqlparser's validator,
// doc/cases/gqlparser-reads.md): one reads the name of each leaf, the
// other, collect, loops over the children of the node it is given, which
// for the root are all the leaves.

type tree struct {
	name string
	kids []*tree
}

var observers []func(*tree)

func walkSet(kids []*tree) {
	for _, k := range kids {
		walkOne(k)
	}
}

func walkOne(n *tree) {
	walkSet(n.kids)
	for _, o := range observers {
		o(n)
	}
}

func collect(n *tree) (s int) {
	for _, k := range n.kids {
		s += len(k.name)
	}
	return s
}

func leaves(n *tree) (s int) {
	if n.kids == nil {
		s = len(n.name)
	}
	return s
}
