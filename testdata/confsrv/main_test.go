package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestScript(t *testing.T) {
	var out bytes.Buffer
	err := runScript(NewSchedule(12).handler(), strings.NewReader("/session?title=Talk%2006\n/sessions/count\n/session?title=nope\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "ok 200 Talk 06 by Speaker 06 in Room 101\nok 200 12\nok 404 no such session\n"
	if out.String() != want {
		t.Errorf("got:\n%swant:\n%s", out.String(), want)
	}
}

func TestFind(t *testing.T) {
	sc := NewSchedule(12)
	for i, title := range []string{"Talk 01", "Talk 06", "Talk 12"} {
		if s := sc.Find(title); s == nil || s.Title() != title {
			t.Errorf("%d: Find(%q) = %v", i, title, s)
		}
	}
}

// TestScriptErrors checks that a line that is not a request path is an
// error naming the line, not a panic in httptest.
func TestScriptErrors(t *testing.T) {
	tests := []struct{ script, want string }{
		{"/rooms\nsession?title=x\n", `line 2: "session?title=x" is not a request path (want one like /session?title=Talk%2006)`},
		{"# GET\n\nGET /rooms\n", `line 3: "GET /rooms" is not a request path (want one like /session?title=Talk%2006)`},
		{"http://example.com/rooms\n", `line 1: "http://example.com/rooms" is not a request path (want one like /session?title=Talk%2006)`},
		{"/%zz\n", `line 1: "/%zz" is not a request path (want one like /session?title=Talk%2006)`},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := runScript(NewSchedule(3).handler(), strings.NewReader(tt.script), &out)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: error %v, want %s", tt.script, err, tt.want)
		}
	}
}
