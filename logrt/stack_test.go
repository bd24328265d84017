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

// TestCallTreeRandom interns random stacks that share prefixes, some deep
// enough to be cut at maxFrames, and checks every node the tree gives
// them against a model that names each prefix (root first) once: the
// walk that starts where the previous stack leaves off must find the same
// nodes as a walk from the root, and so must the children remembered at
// each depth (memoSet), also after the tree is forgotten (reset).
func TestCallTreeRandom(t *testing.T) {
	s := newShard(0, false)
	tr := &s.tree
	definePCs := func() {
		for pc := uintptr(1); pc <= 4; pc++ {
			tr.pcIDs[pc] = uint32(pc) // defined: defineFrames is not called
		}
	}
	definePCs()
	model := map[string]uint32{}
	seed := uint32(1)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	var prev []uintptr
	for i := 0; i < 3000; i++ {
		n := 1 + rnd(maxFrames)
		if rnd(4) == 0 {
			n = maxFrames + rnd(3) // cut: what fpCallers gives is maxFrames long
		}
		if n > maxFrames {
			n = maxFrames
		}
		pcs := make([]uintptr, n) // innermost first
		keep := rnd(len(prev) + 1)
		for k := 0; k < n; k++ {
			if j := len(prev) - n + k; k >= n-keep && j >= 0 && j < len(prev) {
				pcs[k] = prev[j] // the outer part of the previous stack
			} else {
				pcs[k] = uintptr(1 + rnd(4))
			}
		}
		prev = pcs
		if i%1000 == 999 { // as commit does past maxNodes: ids go on rising
			tr.reset()
			definePCs()
			model = map[string]uint32{}
		}
		st, ok := tr.intern(s, pcs, len(pcs) == maxFrames)
		if !ok {
			t.Fatal("intern failed")
		}
		next := tr.next
		tr.commit(st)
		checkPath(t, i, tr, pcs, model, next)
	}
}

// checkPath checks the tree's path for pcs against the model, adding the
// prefixes the event defined (ids from next on).
func checkPath(t *testing.T, i int, tr *callTree, pcs []uintptr, model map[string]uint32, next uint32) {
	seq := []uintptr{}
	if len(pcs) == maxFrames {
		seq = append(seq, 0)
	}
	for k := len(pcs) - 1; k >= 0; k-- {
		seq = append(seq, pcs[k])
	}
	if tr.lastN != len(seq) {
		t.Fatalf("stack %d: %d nodes known, want %d", i, tr.lastN, len(seq))
	}
	key := ""
	for k, pc := range seq {
		key += string(rune('0' + pc))
		id, seen := model[key]
		if !seen {
			id = next
			next++
			model[key] = id
		}
		if tr.path[k] != id || tr.last[k] != pc {
			t.Fatalf("stack %d, node %d: id %d pc %d, want %d %d", i, k, tr.path[k], tr.last[k], id, pc)
		}
	}
}
