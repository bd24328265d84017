package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryTornTrace: a trace whose last record was torn (the program
// died while writing it) is summarized, with a note on stderr.
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
	for _, tc := range []struct {
		path, note string
	}{
		{torn, "suncat: summary: note: " + torn + ": the last record was being written when the program died; it was skipped\n"},
		{"../../testdata/traces/busapp.suncat", ""},
	} {
		var out, errb bytes.Buffer
		if err := run(&out, &errb, []string{"summary", "-level", "count", tc.path}); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if errb.String() != tc.note {
			t.Errorf("%s: stderr %q, want %q", tc.path, errb.String(), tc.note)
		}
		if !strings.Contains(out.String(), "a^1|2|3|4 ") {
			t.Errorf("%s: no Count Summary:\n%s", tc.path, out.String())
		}
	}
}
