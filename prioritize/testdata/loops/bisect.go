package p

// Diff recurses through compute, bisect and split, as go-diff's does:
// bisect's loop runs in every activation.
func Diff(xs []int) int    { return compute(xs) }
func compute(xs []int) int { return bisect(xs) }
func bisect(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x.v
	}
	if len(xs) > 1 {
		s += split(xs)
	}
	return s
}
func split(xs []int) int { h := len(xs) / 2; return compute(xs[:h]) + compute(xs[h:]) }

// scan recurses from two loops, each reading a field.
func scan(n *node) int {
	s := 0
	for _, c := range n.kids {
		s += c.v
		s += scan(c)
	}
	for _, c := range n.more {
		s += c.w
		s += scan(c)
	}
	return s
}

// check recurses once into each element of a slice, as kong's
// checkEnum does: one level deep, in every stack.
func check(v *value, x any) bool {
	switch t := x.(type) {
	case []string:
		for _, s := range t {
			if !check(v, s) {
				return false
			}
		}
		return true
	default:
		return v.enum != ""
	}
}
