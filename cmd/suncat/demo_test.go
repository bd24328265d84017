package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestDemo runs the README's first command and checks that it shows both
// planted bugs of the bus app growing by sub-trace, and the work that does
// not grow staying flat.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the bus app")
	}
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"demo"}); err != nil {
		t.Fatalf("demo: %v\n%s", err, errb.String())
	}
	text := out.String()
	rows := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) >= 7 {
			// getter, called from (function, file:line), goroutine, counts...
			rows[f[0]+" "+f[1]] = strings.Join(f[4:], " ")
		}
	}
	want := map[string]*regexp.Regexp{
		// Bug 1: one more observer per navigation re-reads the stop name.
		"(*Stop).Name main.(*app).open.func1": regexp.MustCompile(`^1 2 3 4 grows$`),
		// Bug 2: the recently-viewed list is serialized on every navigation.
		"(*Route).ShortName model.(*ViewState).visit": regexp.MustCompile(`^\d+ \d+ \d+ \d+ grows$`),
		// The stop list itself costs the same every time.
		"(*Stop).Name main.(*app).View": regexp.MustCompile(`^16 16 16 16$`),
	}
	for row, re := range want {
		got, ok := rows[row]
		if !ok {
			t.Errorf("no row for %s in:\n%s", row, text)
			continue
		}
		if !re.MatchString(got) {
			t.Errorf("%s: counts %q, want %s", row, got, re)
		}
	}
}
