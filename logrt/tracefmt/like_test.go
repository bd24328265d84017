package tracefmt

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

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

// FuzzLike: Like never panics and agrees with the same pattern written
// as a regexp.
func FuzzLike(f *testing.F) {
	f.Add("SELECT Name FROM Tags WHERE id = ?", "SELECT Name FROM Tags%")
	f.Add("abcabd", "%a_d")
	f.Add("", "%%")
	f.Fuzz(func(t *testing.T, s, p string) {
		if !utf8.ValidString(s) || !utf8.ValidString(p) {
			return
		}
		got := Like(s, p)
		var re strings.Builder
		re.WriteString(`^(?s:`)
		for _, r := range foldSpace(p) {
			switch r {
			case '%':
				re.WriteString(`.*`)
			case '_':
				re.WriteString(`.`)
			default:
				re.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		re.WriteString(`)$`)
		if want := regexp.MustCompile(re.String()).MatchString(foldSpace(s)); got != want {
			t.Errorf("Like(%q, %q) = %v, the regexp %s says %v", s, p, got, re.String(), want)
		}
	})
}
