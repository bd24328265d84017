package instrument

import "github.com/suncat-go/suncat/logrt/tracefmt"

// HookTable returns the table entries of every method of the standard
// library that -calls sql and -calls http record, numbered from 1, as a
// trace's getter table holds them (Field "call:sql"): what suncat delay
// tells a --getter that names such a call by, when -calls lacks its set.
func HookTable() []tracefmt.Getter {
	var out []tracefmt.Getter
	for _, g := range hookEntries(CallSpec{SQL: true, HTTP: true}, 0) {
		out = append(out, g.Runtime())
	}
	return out
}
