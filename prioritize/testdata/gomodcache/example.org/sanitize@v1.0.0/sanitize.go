// An HTML sanitizer in a module cache, for TestDepOwnLoop: its token
// loop reads its own fields, which suncat instrument -deps records.
package sanitize

type token struct{ kind int }

func (p *Policy) Sanitize(toks []token) int {
	n := 0
	for _, t := range toks {
		n += t.kind
	}
	return n
}
