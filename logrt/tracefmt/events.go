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

// TurnField is the Field of a loop's entry (suncat instrument -loops): a
// turn is recorded as a read of nothing, named "loop@FILE:LINE", whose
// value is true. No field's type is written so.
const TurnField = ReadPrefix + "(turn)"

// IsTurn reports whether a table entry is a loop's turns.
func (g Getter) IsTurn() bool { return g.Field == TurnField }

// An EventKind is what a getter table entry records.
type EventKind string

const (
	KindGetter EventKind = "getter" // a string getter's call
	KindRead   EventKind = "read"   // a read of a struct field (-reads)
	KindCall   EventKind = "call"   // a call that -calls chose
)

// EventKind returns the kind of event of a getter table entry, told by
// its Field's prefix.
func (g Getter) EventKind() EventKind {
	switch {
	case strings.HasPrefix(g.Field, ReadPrefix):
		return KindRead
	case strings.HasPrefix(g.Field, CallPrefix):
		return KindCall
	}
	return KindGetter
}

// The -calls sets that suncat records inside the standard library, in
// the methods of one package (instrument's stdHooks), whoever calls them.
const (
	HookSQL  = "sql"  // database/sql
	HookHTTP = "http" // net/http
)

// HookedCall reports whether g is a call recorded inside the standard
// library by the hook of -calls sql or http: its Field names the set
// and its Package is the set's package.
func (g Getter) HookedCall() bool {
	switch g.Field {
	case CallPrefix + HookSQL:
		return g.Package == "database/sql"
	case CallPrefix + HookHTTP:
		return g.Package == "net/http"
	}
	return false
}
