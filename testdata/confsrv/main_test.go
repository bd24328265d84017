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
