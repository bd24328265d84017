package tracefile

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

func TestTmpAnalyze(t *testing.T) {
	data, err := os.ReadFile("/tmp/split-spread.suncat")
	if err != nil {
		t.Skip()
	}
	cs := 1 << 20
	le := binary.LittleEndian
	t.Logf("size %d chunks %d, header count %d", len(data), len(data)/cs, le.Uint32(data[508:]))
	for i := 0; i*cs < len(data); i++ {
		start := i * cs
		if i == 0 {
			start = 512
		}
		w := le.Uint32(data[start:])
		if w == 0 {
			t.Logf("chunk %d: empty, allzero %v", i, allZero(data[i*cs:(i+1)*cs]))
			continue
		}
		shard, _ := binary.Uvarint(data[start+4:])
		end := (i + 1) * cs
		tag := le.Uint32(data[end-4:]) == tracefmt.TrailerTag
		recs, evs, off := 0, 0, start
		lastKind := byte(0)
		for off+4 <= end {
			w := le.Uint32(data[off:])
			if w == 0 {
				break
			}
			recs++
			if tracefmt.IsEvent(byte(w)) {
				evs++
			}
			lastKind = byte(w)
			off += (4 + int(w>>8) + 3) &^ 3
		}
		rest := ""
		if off+4 <= end {
			if !allZero(data[off+4 : end-20]) {
				rest = "NONZERO-AFTER"
			}
		}
		t.Logf("chunk %d: shard %d recs %d evs %d stop %d lastkind %d trailer %v tpad %d trecs %d tevs %d %s", i, shard, recs, evs, off-i*cs, lastKind, tag, le.Uint32(data[end-20:]), le.Uint32(data[end-16:]), le.Uint32(data[end-12:]), rest)
	}
}

func TestTmpStreams(t *testing.T) {
	f, err := Load("/tmp/split-spread.suncat")
	if err != nil {
		t.Skip()
	}
	d := &decoder{name: "x", img: f.img, t: &Trace{Path: "x"}}
	d.cur.img = f.img
	d.budget = &frameBudget{left: 1 << 40}
	if err := d.header(); err != nil {
		t.Fatal(err)
	}
	ss, err := d.streams()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		n := 0
		for !s.done {
			if err := s.step(); err != nil {
				t.Logf("shard %d: err %v", s.id, err)
				break
			}
			if s.has != 0 {
				if s.has == hasEvent {
					n++
				}
				s.has = 0
			}
		}
		t.Logf("shard %d chunks %v: %d events, torn %v cut %v losses %v", s.id, s.chunks, n, d.t.Torn, d.t.Cut, d.t.Losses)
	}
}
