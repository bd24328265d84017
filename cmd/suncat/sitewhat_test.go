package main

import (
	"testing"

	"github.com/suncat-go/suncat/instrument"
)

// TestSiteWhat: getters -v says what each site records in a sentence, the
// value a call or a type name passes quoted once, with no stray comma.
func TestSiteWhat(t *testing.T) {
	for _, c := range []struct {
		site instrument.Site
		want string
	}{
		{instrument.Site{Func: "Call", Extra: `, "even"`}, `the call, with the value "even"`},
		{instrument.Site{Func: "CallWith", Extra: `, "slices.Contains"`}, `the call, with the value "slices.Contains"`},
		{instrument.Site{Func: "ReadAs", Extra: `, "*ast.File"`}, `the type name "*ast.File"`},
		{instrument.Site{Func: "ReadSlice"}, "len N"},
	} {
		if got := siteWhat(c.site); got != c.want {
			t.Errorf("siteWhat(%s, %s) = %q, want %q", c.site.Func, c.site.Extra, got, c.want)
		}
	}
}
