package grammar

func computeFast(rs *ruleSet, sub int, x []elem) []elem {
	return computeReference(rs, sub, x)
}
