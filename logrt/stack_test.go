package logrt

import (
	"os"
	"testing"
)

// TestStacksMatchCallers records recursions whose stacks rarely repeat
// exactly (exitprog tree), with frame pointers and with runtime.Callers,
// and checks that every event's stack, as read back from the call-site
// tree, has the functions and lines that runtime.Callers gave the program
// at that call (the event's value is their key).
func TestStacksMatchCallers(t *testing.T) {
	const n = 400
	for _, fp := range []string{"1", "0"} {
		tr := runProg(t, "tree", n, "SUNCAT_FP="+fp)
		if len(tr.Events) < n*5 {
			t.Fatalf("SUNCAT_FP=%s: %d events", fp, len(tr.Events))
		}
		bad := 0
		for i, e := range tr.Events {
			s := tr.StackOf(e.Stack)
			if s == nil || s.Key() != e.Value {
				bad++
				if bad <= 3 {
					t.Errorf("SUNCAT_FP=%s: event %d: stack %v does not match runtime.Callers", fp, i, s)
				}
			}
		}
		if bad > 0 {
			t.Errorf("SUNCAT_FP=%s: %d of %d stacks differ", fp, bad, len(tr.Events))
		}
		if st, err := os.Stat(tr.Path); err == nil {
			t.Logf("SUNCAT_FP=%s: %d events, %d stacks, %d bytes", fp, len(tr.Events), len(tr.Stacks), st.Size())
		}
	}
}
