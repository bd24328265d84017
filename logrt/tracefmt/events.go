package tracefmt

import "strings"

// Field prefixes of the getter table entries of the events beyond string
// getters (suncat instrument -reads, -calls): a read of field Method of
// type Receiver ("read:" and the field's type), a call of Receiver.Method
// ("call:" and the set or pattern that chose it). The table's encoding
// is the getters'.
const (
	ReadPrefix = "read:"
	CallPrefix = "call:"
)

// EventKind returns the kind of event of a getter table entry: "getter",
// "read" or "call".
func (g Getter) EventKind() string {
	switch {
	case strings.HasPrefix(g.Field, ReadPrefix):
		return "read"
	case strings.HasPrefix(g.Field, CallPrefix):
		return "call"
	}
	return "getter"
}
