package logrt

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// TestGetterTableSurvives changes one byte of chunk 0, which holds the
// getter table, among the events after the table: only shard 0's events
// (of chunk 0 and its later chunks) are lost, and counted; the other
// shards' events are read, since the table has its own check. Before,
// the table was lost with the chunk, and every other shard's events then
// failed ("event of getter 2, which the trace's getter table lacks"): 0
// events read.
func TestGetterTableSurvives(t *testing.T) {
	dir := t.TempDir()
	runHelper(t, "fill", dir, "SUNCAT_PIN=0", "GOMAXPROCS=2")
	files := traces(dir)
	if len(files) != 1 {
		t.Fatalf("want one trace, found %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	whole, err := tracefile.Decode("whole", data)
	if err != nil || whole.Problem() != "" {
		t.Fatalf("the trace: %v %q", err, whole.Problem())
	}
	total := whole.EventsRead
	if len(data) < 2*chunkSize || binary.LittleEndian.Uint32(data[chunkSize-4:]) != tracefmt.TrailerTag {
		t.Fatalf("chunk 0 was not left (no trailer): %d bytes, %d events", len(data), total)
	}
	b := append([]byte(nil), data...)
	b[chunkSize/2] ^= 0x10
	got, err := tracefile.Decode("flipped", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Losses) != 1 {
		t.Fatalf("losses %+v, problem %q", got.Losses, got.Problem())
	}
	l := got.Losses[0]
	if l.Chunk != 0 || l.Shard != 0 || l.Events <= 0 || l.Later < 0 || got.EventsRead+l.Events+l.Later != total || got.EventsRead == 0 {
		t.Errorf("%d read + %d lost in chunk %d (shard %d) + %d later, want %d in all: %q", got.EventsRead, l.Events, l.Chunk, l.Shard, l.Later, total, got.Problem())
	}
	t.Logf("%d events recorded; one byte changed in chunk 0: %s", total, got.Problem())
}

// bigTable is a getter table of about 3 MB, three chunks: 5,000 fields
// with names of 600 bytes, and the getter the helper calls (id 2).
func bigTable() []Getter {
	gs := []Getter{{ID: 2, Package: "logrt", Receiver: "*value", Method: "Get", Field: "s"}}
	long := strings.Repeat("x", 600)
	for i := 0; i < 5000; i++ {
		gs = append(gs, Getter{ID: uint32(i + 3), Package: "example.com/big", Receiver: "*T", Method: "F" + strconv.Itoa(i) + long, Field: "int"})
	}
	return gs
}

// TestGetterTableLargerThanAChunk: a getter table that takes several
// chunks is written when the trace opens, before the program's events,
// and read back whole. Its writer took the writer's lock a second time
// to hand out the second chunk, and the program never started (a sweep
// of published modules met it: 3,000 fields of 400-byte names).
func TestGetterTableLargerThanAChunk(t *testing.T) {
	dir := t.TempDir()
	runHelper(t, "bigtable", dir)
	files := traces(dir)
	if len(files) != 1 {
		t.Fatalf("want one trace, found %v", files)
	}
	tr, err := tracefile.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	last, ok := tr.GetterOf(5002)
	if !ok || !strings.HasPrefix(last.Method, "F4999x") || len(tr.Events) != 10 || tr.Problem() != "" {
		t.Errorf("getter 5002 %v (%.20q), %d events, problem %q; want the table's last and 10 events", ok, last.Method, len(tr.Events), tr.Problem())
	}
}
