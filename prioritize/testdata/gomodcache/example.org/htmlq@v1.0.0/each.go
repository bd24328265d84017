// An HTML library's selection in a module cache, for TestDepCallback:
// Each calls the program's callback once per node, from its loop.
package htmlq

func (s *Selection) Each(f func(int, *Selection)) *Selection {
	for i, n := range s.Nodes {
		f(i, newSingleSelection(n, s.document))
	}
	return s
}
