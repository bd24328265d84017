// The source of TestResponsibleReadInOwnMethod: a TUI model whose View
// renders every match. The line numbers below are the frames' lines.
package loops

type model struct {
	matches []string
	reverse bool
}

// View loops over the matches, reading the model's own fields.
func (m model) View() string {
	s := ""
	for i := range m.matches {
		if m.reverse {
			i = len(m.matches) - 1 - i
		}
		s += m.matches[i]
	}
	return s
}

// eventLoop renders once per event, forever.
func eventLoop(m model, events <-chan int) {
	for range events {
		_ = m.View()
	}
}
