package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/suncat-go/suncat/prioritize"
)

// TestAnnotation: GitHub workflow commands escape their message and
// properties, name files relative to the working directory, and leave
// the file out for a site gone.
func TestAnnotation(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	head := &prioritize.SiteSide{File: filepath.Join(wd, "sub", "a,b:c.go"), Line: 7}
	d := &prioritize.SiteDiff{Name: "(*T).Name", Head: head}
	if got, want := annotation("error", d, "50% more\nof it"), "::error file=sub/a%2Cb%3Ac.go,line=7::50%25 more%0Aof it"; got != want {
		t.Errorf("annotation = %q, want %q", got, want)
	}
	head.File = "/elsewhere/x.go"
	if got, want := annotation("notice", d, "m"), "::notice file=/elsewhere/x.go,line=7::m"; got != want {
		t.Errorf("outside the working directory: %q, want %q", got, want)
	}
	gone := &prioritize.SiteDiff{Name: "(*T).Name", Base: head}
	if got, want := annotation("notice", gone, "site gone"), "::notice::site gone"; got != want {
		t.Errorf("site gone: %q, want %q", got, want)
	}
}

func TestCompareFormat(t *testing.T) {
	for _, tc := range []struct {
		f    compareFlags
		want string // "" for misuse
	}{
		{compareFlags{format: "text"}, formatText},
		{compareFlags{format: "github"}, formatGitHub},
		{compareFlags{json: true, format: "text"}, formatJSON},
		{compareFlags{json: true, format: "json"}, formatJSON},
		{compareFlags{json: true, format: "github"}, ""},
		{compareFlags{format: "sarif"}, ""},
		{compareFlags{format: "text", run: "a["}, ""},
	} {
		got, err := tc.f.get()
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("%+v: %q, %v; want %q", tc.f, got, err, tc.want)
		}
		if err != nil && exitCode(err, io.Discard) != 2 {
			t.Errorf("%+v: exit status %d, want 2", tc.f, exitCode(err, io.Discard))
		}
	}
}
