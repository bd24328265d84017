package instrument

import (
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestHookTableHooked: every entry of the hooked standard-library
// methods is what the reader takes for a hooked call (Getter.HookedCall),
// so the two lists cannot drift; a -calls pattern that chose a
// standard-library function is not one.
func TestHookTableHooked(t *testing.T) {
	table := HookTable()
	if len(table) == 0 {
		t.Fatal("no hooked methods")
	}
	for _, g := range table {
		if !g.HookedCall() {
			t.Errorf("%s.%s (field %q) is not a hooked call", g.Package, g.Name(), g.Field)
		}
	}
	pattern := tracefmt.Getter{Package: "os", Method: "ReadFile", Field: tracefmt.CallPrefix + "os.ReadFile"}
	if pattern.HookedCall() {
		t.Errorf("a -calls pattern on os.ReadFile is taken for a hooked call")
	}
}
