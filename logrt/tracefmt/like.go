package tracefmt

import "strings"

// Like is the match of suncat delay's --getter 'sql:PATTERN', which the
// runtime applies before a delay (logrt's delaymatch.go) and suncat when
// it counts the delayed calls: here so that both agree.

// Like reports whether s matches the SQL LIKE pattern (% any run of
// characters, _ any one), both with their white space folded into single
// spaces and trimmed.
func Like(s, pattern string) bool {
	return like([]rune(foldSpace(s)), []rune(foldSpace(pattern)))
}

func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// like matches s against p, backtracking to the last % only.
func like(s, p []rune) bool {
	si, pi, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && p[pi] == '%':
			star, mark = pi, si
			pi++
		case pi < len(p) && (p[pi] == '_' || p[pi] == s[si]):
			si++
			pi++
		case star >= 0:
			mark++
			si, pi = mark, star+1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}
