package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/thirdparty"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// readSuites are widely imported libraries, as published, whose tests
// must pass under suncat test -reads exactly as under go test: most say
// a go line below go1.20 (or none), which the rewrite of reads needs
// (instrument/language.go), and several have fields of interface-keyed
// map or interface types. Small ones, so the suite stays fast: yaml.v3
// and yaml.v2 pass too (by hand, with GOFLAGS=-mod=mod: they are
// published without a go.sum), but their tests parse megabytes and write
// a trace of 1 GB in two minutes each; yaml.v3 is here through gojq.
var readSuites = []suite{
	{name: "logrus", module: "github.com/sirupsen/logrus@v1.9.3", pkgs: []string{"./..."}}, // go 1.13
	// No go line. TestVersion6 reads two version-6 UUIDs made one after
	// the other and fails if the second's time is the smaller: NewV6
	// writes the version over bits 12-15 of the time (version6.go), so
	// the two straddle a multiple of 409.6 µs now and then, more often
	// the longer the program takes between them. It failed in 3 of 5
	// runs of -count=50 under -reads here, in none of 5 under go test.
	{name: "uuid", module: "github.com/google/uuid@v1.6.0", pkgs: []string{"./..."},
		skip: "^TestVersion6$", why: "fails when two calls straddle 409.6 µs, more often when slower"},
	{name: "pflag", module: "github.com/spf13/pflag@v1.0.9", pkgs: []string{"./..."}},  // go 1.12
	{name: "cast", module: "github.com/spf13/cast@v1.6.0", pkgs: []string{"./..."}},    // go 1.19
	{name: "color", module: "github.com/fatih/color@v1.12.0", pkgs: []string{"./..."}}, // go 1.13
	// go 1.11. Not ./dynamic: its test loads a plugin that go build makes
	// of the module's packages as they are, and a plugin must link the
	// same packages as its host, which suncat's are not. TestStringAllocs
	// and TestAllocs want no allocation at all (testing.AllocsPerRun), and
	// recording a read keeps its value in a table that grows by blocks now
	// and then (logrt/values.go): the first failed once in three runs
	// here, the second once in CI (2026-11-28, TestAllocs/Digest).
	{name: "xxhash", module: "github.com/cespare/xxhash/v2@v2.1.2", pkgs: []string{".", "./xxhsum"},
		skip: "^(TestStringAllocs|TestAllocs)$", why: "counts allocations, which recording values makes now and then"},
	{name: "multierror", module: "github.com/hashicorp/go-multierror@v1.1.1", pkgs: []string{"./..."}}, // go 1.13
	{name: "humanize", module: "github.com/dustin/go-humanize@v1.0.1", pkgs: []string{"./..."}},        // go 1.16
	{name: "toml", module: "github.com/BurntSushi/toml@v1.2.1", pkgs: []string{"./..."}},               // go 1.16
	{name: "uniseg", module: "github.com/rivo/uniseg@v0.2.0", pkgs: []string{"./..."}},                 // go 1.12
}

// TestThirdPartyReads runs each read suite's tests with go test and with
// suncat test -reads, from one copy of the module, and checks that every
// package and test has the same outcome, that the module's files are as
// they were, and that the traces hold field reads. Then it builds gojq
// with -reads -deps gopkg.in/yaml.v3 (no go line, a map[interface{}]bool
// field) and runs it on YAML input. SUNCAT_SUITES=1 runs it (as CI does).
func TestThirdPartyReads(t *testing.T) {
	thirdparty.Require(t, "ten third-party modules and gojq")
	if testing.Short() {
		t.Skip("downloads and tests ten modules")
	}
	bin := suncatBinary(t)
	for _, s := range readSuites {
		t.Run(s.name, func(t *testing.T) {
			dir := thirdparty.Copy(t, s.module)
			plain := runSuite(t, dir, s, "go", "test", "-count=1", "-json")
			if plain.status != 0 {
				t.Logf("go test exit status %d:\n%s", plain.status, tail(plain.stderr))
			}
			before := thirdparty.TreeSum(t, dir) // after go test, whose tests may write files
			traces := filepath.Join(t.TempDir(), "traces")
			inst := runSuite(t, dir, s, bin, "test", "-reads", "-traces", traces, "-json")
			if inst.status != plain.status {
				t.Errorf("suncat test -reads exit status %d, go test %d\n%s", inst.status, plain.status, tail(inst.stderr))
			}
			tests := sameOutcomes(t, plain, inst)
			if after := thirdparty.TreeSum(t, dir); after != before {
				t.Errorf("the module's files changed under suncat test")
			}
			reads, events := readEvents(t, traces)
			if reads == 0 {
				t.Errorf("traces hold %d events, no field read\n%s", events, tail(inst.stderr))
			}
			t.Logf("%d tests (go test status %d); go test %v, suncat test -reads %v; %d events, %d field reads",
				tests, plain.status, plain.wall.Round(time.Millisecond), inst.wall.Round(time.Millisecond), events, reads)
		})
	}
	t.Run("gojq", func(t *testing.T) { gojqYAML(t, bin) })
}

// gojqYAML builds gojq with -reads -deps gopkg.in/yaml.v3 and runs it on
// a YAML document: the reads of yaml.v3's fields are recorded.
func gojqYAML(t *testing.T, bin string) {
	dir := thirdparty.Copy(t, "github.com/itchyny/gojq@v0.12.17")
	before := thirdparty.TreeSum(t, dir)
	exe := filepath.Join(t.TempDir(), "gojq")
	build := exec.Command(bin, "instrument", "-reads", "-deps", "gopkg.in/yaml.v3", "-o", exe, "./cmd/gojq")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("suncat instrument: %v\n%s", err, out)
	}
	traces := t.TempDir()
	run := exec.Command(exe, "--yaml-input", "-c", ".items | length")
	run.Stdin = strings.NewReader("items:\n  - {a: 1, b: [x, y]}\n  - {a: 2, b: [z]}\n  - {a: 3}\n")
	run.Env = append(os.Environ(), "SUNCAT_TRACE="+traces+"/", "SUNCAT_CONTROL=off")
	out, err := run.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "3" {
		t.Fatalf("instrumented gojq: %v\n%s", err, out)
	}
	yamlReads := 0
	files, _ := filepath.Glob(filepath.Join(traces, "*.suncat"))
	for _, f := range files {
		n, _ := countReads(t, f, "gopkg.in/yaml.v3")
		yamlReads += n
	}
	if yamlReads == 0 {
		t.Errorf("no read of a yaml.v3 field in %d trace(s)", len(files))
	}
	if after := thirdparty.TreeSum(t, dir); after != before {
		t.Errorf("gojq's files changed")
	}
	t.Logf("%d reads of yaml.v3 fields", yamlReads)
}

// readEvents counts the events of the traces in dir, and the field
// reads among them, without keeping the events (a trace of millions of
// reads would not fit in memory as a tracefile.Trace).
func readEvents(t *testing.T, dir string) (reads, events int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	for _, f := range files {
		reads1, events1 := countReads(t, f, "")
		reads += reads1
		events += events1
	}
	return reads, events
}

// countReads counts the events of trace file f, and the reads among them
// of fields of package pkg ("" for any).
func countReads(t *testing.T, f, pkg string) (reads, events int) {
	t.Helper()
	file, err := tracefile.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uint32]int{}
	tr, err := file.DecodeFunc(func(ev *tracefile.Event, _ *tracefile.Marker) error {
		if ev != nil {
			byID[ev.Getter]++
			events++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, n := range byID {
		if g, ok := tr.GetterOf(id); ok && g.EventKind() == "read" && (pkg == "" || g.Package == pkg) {
			reads += n
		}
	}
	return reads, events
}
