package testhook

import (
	"os"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/testtmp"
	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// TestMain runs the tests under testtmp (a temporary directory removed
// however they end), writing this process's trace there.
func TestMain(m *testing.M) { testtmp.Main(traceMain{m}) }

type traceMain struct{ m *testing.M }

func (t traceMain) Run() int {
	dir, err := os.MkdirTemp("", "testhook")
	if err != nil {
		panic(err)
	}
	os.Setenv(logrt.TraceEnv, dir+string(os.PathSeparator))
	os.Setenv(logrt.ControlEnv, "off")
	// The reader refuses an event of a getter not in the table.
	logrt.SetGetters([]logrt.Getter{{ID: 1, Package: "testhook", Method: "get"}})
	code := t.m.Run()
	os.RemoveAll(dir)
	return code
}

// get stands in for an instrumented getter.
func get(v string) string { return logrt.String(1, v) }

// TestLabels runs subtests through the hooks and reads back, from this
// process's own trace, which label each event got.
func TestLabels(t *testing.T) {
	Start(t)
	get("setup")
	Run(t, "one", func(t *testing.T) { get("1") })
	Run(t, "two", func(t *testing.T) {
		get("2")
		Run(t, "deep", func(t *testing.T) { get("2.1") })
	})
	Run(t, "quiet", func(t *testing.T) {}) // no event: no sub-trace
	Run(t, "clean", func(t *testing.T) {
		Cleanup(t, func() { get("cleanup") })
		Run(t, "sub", func(t *testing.T) { get("sub") })
	})
	get("teardown")
	Label("ExampleThing")
	get("example")

	tr, err := tracefile.ReadFile(logrt.TracePath())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ei, mi := 0, 0
	for ei < len(tr.Events) || mi < len(tr.Marks) {
		if mi < len(tr.Marks) && (ei >= len(tr.Events) || tr.Marks[mi].Seq < tr.Events[ei].Seq) {
			got = append(got, "["+tr.Marks[mi].Label+"]")
			mi++
			continue
		}
		got = append(got, tr.Events[ei].Value)
		ei++
	}
	// A subtest's span ends after its events and cleanups ([span]); one
	// whose label is still pending (two, after deep; quiet) writes none.
	want := "[TestLabels] setup [TestLabels/one] 1 [span] [TestLabels/two] 2 [TestLabels/two/deep] 2.1 [span] [TestLabels/clean/sub] sub [span] [TestLabels/clean] cleanup [span] [TestLabels] teardown [ExampleThing] example"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("labels and events:\n got %s\nwant %s", g, want)
	}
}
