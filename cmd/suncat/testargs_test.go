package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitTestArgs(t *testing.T) {
	for _, tc := range []struct{ args, own, rest string }{
		{"-v ./x", "-v ./x", ""},
		{"./x -- -benchmem", "./x", "-benchmem"},
		{"./x -args -size 3", "./x", "-args -size 3"},
		{"./x --args -size 3", "./x", "--args -size 3"},
		// -args first: the rest, "--" included, is the test binaries'.
		{"./x -args -n -- y", "./x", "-args -n -- y"},
		// "--" first: -args after it is go test's, as given.
		{"./x -- -v -args -n", "./x", "-v -args -n"},
	} {
		own, rest := splitTestArgs(strings.Fields(tc.args))
		if !reflect.DeepEqual(own, fields(tc.own)) || !reflect.DeepEqual(rest, fields(tc.rest)) {
			t.Errorf("%q: got %q, %q; want %q, %q", tc.args, own, rest, tc.own, tc.rest)
		}
	}
}

func fields(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Fields(s)
}

func TestFlagValue(t *testing.T) {
	for _, tc := range []struct {
		flags       []string
		name, value string
		found       bool
	}{
		{[]string{"-json"}, "json", "true", true},
		{[]string{"--json=false"}, "json", "false", true},
		{[]string{"-run=X", "-test.count=3"}, "count", "3", true},
		{[]string{"-count", "2"}, "count", "true", true}, // value in the next argument: given all the same
		{[]string{"-count=1", "-count=5"}, "count", "5", true},
		{[]string{"-parallelism=2", "parallel"}, "parallel", "", false},
	} {
		v, ok := flagValue(tc.flags, tc.name)
		if v != tc.value || ok != tc.found {
			t.Errorf("flagValue(%q, %q) = %q, %v; want %q, %v", tc.flags, tc.name, v, ok, tc.value, tc.found)
		}
	}
}
