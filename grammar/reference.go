package grammar

// computeReference is computeRPList transcribed from the specification:
// for n = 1, 2, ... find every chain of k >= 2 adjacent windows of length n
// with the same underlying symbols that cannot be extended to the right,
// merge the one with the largest k (ties: smallest start), and start again
// at n = 1. It is kept as the obviously-correct oracle for the fast engine.
func computeReference(rs *ruleSet, sub int, x []elem) []elem {
	n := 1
	for n <= len(x)/2 {
		bestI, bestK := -1, 0
		for i := 0; i+2*n <= len(x); i++ {
			k := 1
			for i+(k+1)*n <= len(x) && rs.sameWindow(x, i, i+k*n, n) {
				k++
			}
			if k >= 2 && k > bestK {
				bestI, bestK = i, k
			}
		}
		if bestI < 0 {
			n++
			continue
		}
		e := rs.mergeWindows(x[bestI:bestI+bestK*n], n, bestK, sub)
		y := make([]elem, 0, len(x)-bestK*n+1)
		y = append(y, x[:bestI]...)
		y = append(y, e)
		y = append(y, x[bestI+bestK*n:]...)
		x = y
		n = 1
	}
	return x
}

// sameWindow reports whether x[i:i+n] and x[j:j+n] have the same
// underlying sequence.
func (rs *ruleSet) sameWindow(x []elem, i, j, n int) bool {
	for t := 0; t < n; t++ {
		if rs.key(x[i+t]) != rs.key(x[j+t]) {
			return false
		}
	}
	return true
}
