package tracefmt

import "testing"

func TestLike(t *testing.T) {
	for _, tc := range []struct {
		s, p string
		want bool
	}{
		{"SELECT Name FROM Tags WHERE id = ?", "SELECT Name FROM Tags%", true},
		{"\n\t\tSELECT Name\n\t\tFROM Tags\n\t\tWHERE id = ?", "SELECT Name FROM Tags%", true},
		{"SELECT Name FROM Bookmarks", "SELECT Name FROM Tags%", false},
		{"SELECT a FROM t", "%FROM t", true},
		{"SELECT a FROM t", "SELECT _ FROM %", true},
		{"SELECT ab FROM t", "SELECT _ FROM %", false},
		{"abcabd", "%abd", true},
		{"", "%", true},
		{"x", "", false},
		{"100%", "100%", true},
	} {
		if got := Like(tc.s, tc.p); got != tc.want {
			t.Errorf("Like(%q, %q) = %v, want %v", tc.s, tc.p, got, tc.want)
		}
	}
}
