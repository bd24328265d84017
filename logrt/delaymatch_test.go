package logrt

import "testing"

func TestDelayMatch(t *testing.T) {
	defer SetDelayMatch(nil, "")
	if ids := parseMatchIDs("ids=3,4 d=1ms match=3,4"); len(ids) != 2 || ids[0] != 3 || ids[1] != 4 {
		t.Fatalf("parseMatchIDs: %v", ids)
	}
	if _, _, _, err := ParseDelay("ids=3 match=3"); err != nil {
		t.Fatalf("ParseDelay with match: %v", err)
	}
	SetDelayMatch([]uint32{3}, "SELECT%tags%")
	for _, tc := range []struct {
		id   uint32
		v    string
		want bool
	}{
		{3, "SELECT name FROM tags", true},
		{3, "SELECT id FROM bookmarks", false},
		{4, "SELECT id FROM bookmarks", true}, // not limited
	} {
		if got := delayWanted(tc.id, tc.v); got != tc.want {
			t.Errorf("delayWanted(%d, %q) = %v, want %v", tc.id, tc.v, got, tc.want)
		}
	}
}
