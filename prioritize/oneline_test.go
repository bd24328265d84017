package prioritize

import "testing"

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT id FROM t", "SELECT id FROM t"},
		{"\n\t\tSELECT\n\t\t\tname,\n\t\t\tid\n\t\tFROM tags  WHERE x = ?\n", "SELECT name, id FROM tags WHERE x = ?"},
		{"a\r\nb", "a b"},
		{"  lead", "  lead"},
		{"\tlead", "lead"},
		{"", ""},
	} {
		if got := OneLine(tc.in); got != tc.want {
			t.Errorf("OneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"SELECT id FROM t", 20, "SELECT id FROM t"},
		{"SELECT id FROM t", 10, "SELECT ..."},
		{"ééééé", 4, "é..."},
	} {
		if got := Shorten(tc.in, tc.n); got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
