package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/prioritize"
)

// TestSummaryTornTrace: a trace whose last record was torn (the program
// died while writing it) is summarized, with a note on stderr, by summary
// and view alike.
func TestSummaryTornTrace(t *testing.T) {
	data, err := os.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	torn := filepath.Join(t.TempDir(), "torn.suncat")
	// A zero commit word (the record's was not stored yet), then the
	// part of its payload that was.
	if err := os.WriteFile(torn, append(data, 0, 0, 0, 0, 0x01, 0x02), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"summary", "view"} {
		for _, tc := range []struct {
			path, note string
		}{
			{torn, "suncat: " + cmd + ": note: " + torn + ": the last record was being written when the program died; it was skipped\n"},
			{"../../testdata/traces/busapp.suncat", ""},
		} {
			var out, errb bytes.Buffer
			if err := run(&out, &errb, []string{cmd, "-split", "marks", tc.path}); err != nil {
				t.Fatalf("%s %s: %v", cmd, tc.path, err)
			}
			if errb.String() != tc.note {
				t.Errorf("%s %s: stderr %q, want %q", cmd, tc.path, errb.String(), tc.note)
			}
			if !strings.Contains(out.String(), " 2. linear    model.(*ViewState).SetCurrent (state.go:27)  1|2|3|4 -> 40 at 40\n") {
				t.Errorf("%s %s: no findings:\n%s", cmd, tc.path, out.String())
			}
		}
	}
}

// TestSummaryNoEvents: a trace with nothing in it (a program that died
// while opening it leaves zeros) is summarized as such, not an error.
func TestSummaryNoEvents(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.suncat")
	if err := os.WriteFile(empty, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, noEvents + "\n"},
		{[]string{"-split", "marks"}, "no events in any sub-trace (-split marks); -split none takes every event\n"},
		{[]string{"-split", "at=Stop.Name"}, "no events in any sub-trace (-split at=Stop.Name); -split none takes every event\n"},
	} {
		var out, errb bytes.Buffer
		if err := run(&out, &errb, append(append([]string{"summary"}, tc.args...), empty)); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !strings.HasSuffix(out.String(), tc.want) {
			t.Errorf("%v: got %q, want it to end with %q", tc.args, out.String(), tc.want)
		}
	}
}

// TestSummaryCutAndDamaged: a trace cut short, or with a damaged record,
// is summarized from what could be read, with one note that says what is
// missing; neither is refused.
func TestSummaryCutAndDamaged(t *testing.T) {
	data, err := os.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.suncat")
	if err := os.WriteFile(cut, data[:len(data)-6], 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.suncat")
	bad := append([]byte(nil), data...)
	bad[512] = 77 // the kind of the first record, after the header
	if err := os.WriteFile(damaged, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		note []string
	}{
		{cut, []string{"suncat: summary: note: " + cut + ": the file is cut short (truncated, or copied while being written): ", " events read, the rest is missing\n"}},
		{damaged, []string{"suncat: summary: note: " + damaged + ": damaged (" + damaged + ": offset 512: unknown record kind 77): the 0 events before it were read, the rest is skipped\n"}},
	} {
		var out, errb bytes.Buffer
		if err := run(&out, &errb, []string{"summary", tc.path}); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		for _, s := range tc.note {
			if !strings.Contains(errb.String(), s) || strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("%s: stderr %q, want one note with %q", tc.path, errb.String(), s)
			}
		}
	}
}

// TestSummaryPastLimits: a trace past the reader's limits (here a stack
// of 3,000 frames, which no writer makes; one of 150,000 took the reader
// past 4 GB) is refused by every reading command with one line and exit
// status 1, not read in part.
func TestSummaryPastLimits(t *testing.T) {
	sample, err := os.ReadFile("../../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte{1, 0, 0xb8, 0x17} // stack 1, flags 0, 3,000 frames
	for i := 0; i < 3000; i++ {
		payload = append(payload, 0, 0, 1) // function "", file "", line 1
	}
	n := len(payload)
	data := append(append([]byte(nil), sample[:512]...), 2, byte(n), byte(n>>8), byte(n>>16)) // a stack record
	data = append(append(data, payload...), make([]byte, 64)...)
	path := filepath.Join(t.TempDir(), "deep.suncat")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"summary", "events", "pprof"} {
		var out, errb bytes.Buffer
		code := exitCode(run(&out, &errb, []string{cmd, path}), &errb)
		if code != 1 || !strings.Contains(errb.String(), "a stack of 3000 frames, more than the reader's limit of 2048") || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q", cmd, code, errb.String())
		}
	}
}

// TestSummaryPatternsKept: summary keeps the first 100 patterns of a
// group, says how many more there are and how to see them, and -top
// shows them: in the text and in the JSON.
func TestSummaryPatternsKept(t *testing.T) {
	summary := placesSummary(t)
	more := regexp.MustCompile(`(?m)^\.\.\. (\d+) more patterns \(-top (\d+) shows them\)$`)
	m := more.FindStringSubmatch(summary("-level", "patterns"))
	if m == nil {
		t.Fatal("no line saying how many more patterns")
	}
	left, all := atoi(t, m[1]), atoi(t, m[2])
	if all != left+prioritize.DefaultPatterns {
		t.Errorf("%d more of %d: want %d kept", left, all, prioritize.DefaultPatterns)
	}
	out := summary("-level", "patterns", "-top", m[2])
	if more.MatchString(out) || strings.Count(out, " max ") != all {
		t.Errorf("-top %d: %d patterns, want all %d", all, strings.Count(out, " max "), all)
	}
	var js struct {
		Groups []struct {
			Patterns     []json.RawMessage `json:"patterns"`
			MorePatterns int               `json:"morePatterns"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(summary("-json")), &js); err != nil {
		t.Fatal(err)
	}
	if g := js.Groups[0]; len(g.Patterns) != prioritize.DefaultPatterns || g.MorePatterns != left {
		t.Errorf("JSON: %d patterns and %d more, want %d and %d", len(g.Patterns), g.MorePatterns, prioritize.DefaultPatterns, left)
	}
}

// placesSummary writes a trace of 3 marked sub-traces of 3,000 runs
// of reads from 200 call sites in a random order (its grammar has rules
// of thousands of items) and returns a function that runs suncat summary
// with the given flags on it.
func placesSummary(t *testing.T) func(args ...string) string {
	s := testtrace.NewSynth("places")
	first := s.Getters(4, false)
	r := rand.New(rand.NewSource(1))
	for sub := 1; sub <= 3; sub++ {
		s.Mark("size "+strconv.Itoa(sub), 10)
		for n := 0; n < 3000; n++ {
			i := r.Intn(200)
			stack := []testtrace.Frame{{Func: "p.T.M", File: "/src/p/t.go", Line: i%4 + 1}, {Func: "main.main", File: "/src/main.go", Line: i + 10}}
			for k := r.Intn(3) + 1; k > 0; k-- {
				s.Event(first+uint32(i%4), stack, "v", 10)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "places.suncat")
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return func(args ...string) string {
		var out, errb bytes.Buffer
		if err := run(&out, &errb, append([]string{"summary"}, append(args, path)...)); err != nil {
			t.Fatalf("summary %q: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
}

// TestSummaryGrammarKept: the grammar levels keep the first 100 items of
// each rule, say how many more there are and how to see them, and -top
// shows them; the JSON counts what it left out of each rule.
func TestSummaryGrammarKept(t *testing.T) {
	summary := placesSummary(t)
	more := regexp.MustCompile(`(?m)^\.\.\. (\d+) more items? in (\d+) rules? \(-top (\d+) shows them\)$`)
	items := func(out string) (n, longest int) {
		for _, l := range strings.Split(out, "\n") {
			if _, body, ok := strings.Cut(l, " -> "); ok {
				k := len(strings.Fields(strings.TrimSuffix(body, " ...")))
				n, longest = n+k, max(longest, k)
			}
		}
		return n, longest
	}
	out := summary("-level", "full")
	m := more.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no line saying how many more items:\n%s", out)
	}
	left, top := atoi(t, m[1]), m[3]
	kept, longest := items(out)
	if longest != prioritize.DefaultItems || strings.Count(out, " ...\n") != atoi(t, m[2]) {
		t.Errorf("rules of up to %d items, %d cut: want %d items and %s cut", longest, strings.Count(out, " ...\n"), prioritize.DefaultItems, m[2])
	}
	if s := summary("-level", "summarized"); !strings.Contains(s, m[0]+"\n") {
		t.Errorf("the Summarized Grammar does not say %q:\n%s", m[0], s)
	}
	all := summary("-level", "full", "-top", top)
	n, longest := items(all)
	if more.MatchString(all) || n != kept+left || strconv.Itoa(longest) != top {
		t.Errorf("-top %s: %d items, the longest rule %d: want %d+%d and %s", top, n, longest, kept, left, top)
	}
	var js struct {
		Groups []struct {
			Grammar struct {
				Start     []json.RawMessage `json:"start"`
				MoreStart int               `json:"moreStart"`
				Rules     []struct {
					Body []json.RawMessage `json:"body"`
					More int               `json:"more"`
				} `json:"rules"`
			} `json:"grammar"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(summary("-json")), &js); err != nil {
		t.Fatal(err)
	}
	g := js.Groups[0].Grammar
	jsKept, jsLeft := len(g.Start), g.MoreStart
	for _, r := range g.Rules {
		jsKept, jsLeft = jsKept+len(r.Body), jsLeft+r.More
	}
	if jsKept != kept || jsLeft != left {
		t.Errorf("JSON: %d items and %d more, want %d and %d", jsKept, jsLeft, kept, left)
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
