package prioritize

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

type splitKind int

const (
	splitDefault splitKind = iota // marks, or none if no trace has a mark: Merge decides
	splitMarks
	splitNone
	splitIdle
	splitAt
	splitBad
)

func splitKindOf(spec string) splitKind {
	switch {
	case spec == "":
		return splitDefault
	case spec == "marks":
		return splitMarks
	case spec == "none":
		return splitNone
	case strings.HasPrefix(spec, "idle="):
		return splitIdle
	case strings.HasPrefix(spec, "at="):
		return splitAt
	}
	return splitBad
}

// A segmenter finds the sub-trace boundaries of one trace as its events
// and marks arrive: each event belongs to the segment after the last
// boundary before it (0 before the first).
type segmenter struct {
	kind    splitKind
	gap     int64              // idle
	at      string             // at
	getters []tracefile.Getter // at: the trace's getter table
	isAt    []int8             // at: by getter id, 1 matches, 2 does not, 0 not looked up
	labels  []string           // of segments 1, 2, ...
	pending []string           // marks: labels of marks not yet followed by an event
	sawMark bool               // a mark (not a pause or resume) was seen
	last    int64              // idle: time of the previous event
	started bool               // idle: an event was seen
}

func newSegmenter(spec string, getters []tracefile.Getter) (*segmenter, error) {
	s := &segmenter{kind: splitKindOf(spec), getters: getters}
	switch s.kind {
	case splitIdle:
		v := strings.TrimPrefix(spec, "idle=")
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, optionError("Split", "%s: %q is not a positive duration", spec, v)
		}
		s.gap = int64(d)
	case splitAt:
		s.at = strings.TrimPrefix(spec, "at=")
		if s.at == "" {
			return nil, optionError("Split", "at=: name a getter, e.g. at=Stop.Name")
		}
	case splitBad:
		return nil, optionError("Split", "%q: want marks, idle=DURATION, at=GETTER or none", spec)
	}
	return s, nil
}

func (s *segmenter) mark(m *tracefile.Marker) {
	if m.Kind != tracefile.KindMark {
		return
	}
	s.sawMark = true
	if s.kind == splitMarks || s.kind == splitDefault {
		s.pending = append(s.pending, m.Label)
	}
}

// event returns the segment of the next event. A mark starts a segment
// only when an event follows it (marks at the end of a trace start none).
func (s *segmenter) event(e *tracefile.Event) int32 {
	switch s.kind {
	case splitMarks, splitDefault:
		for _, l := range s.pending {
			if l == "" {
				l = "mark " + strconv.Itoa(len(s.labels)+1)
			}
			s.labels = append(s.labels, l)
		}
		s.pending = s.pending[:0]
	case splitIdle:
		if !s.started || e.Time-s.last > s.gap {
			s.labels = append(s.labels, fmt.Sprintf("episode %d", len(s.labels)+1))
		}
		s.started, s.last = true, e.Time
	case splitAt:
		if s.matches(e.Getter) {
			s.labels = append(s.labels, fmt.Sprintf("%s #%d", s.at, len(s.labels)+1))
		}
	}
	return int32(len(s.labels))
}

func (s *segmenter) matches(id uint32) bool {
	if int(id) < len(s.isAt) && s.isAt[id] != 0 {
		return s.isAt[id] == 1
	}
	ok := false
	if id != 0 && int(id) <= len(s.getters) && s.getters[id-1].ID != 0 {
		ok = MatchGetter(s.getters[id-1], s.at)
	}
	if id < 1<<20 {
		for int(id) >= len(s.isAt) {
			s.isAt = append(s.isAt, 0)
		}
		s.isAt[id] = 2
		if ok {
			s.isAt[id] = 1
		}
	}
	return ok
}

// subTraces returns the segments of a finished part that are sub-traces
// under the split resolved by Merge, with their labels: "none" makes the
// whole trace (segment 0) one sub-trace labelled run (see runLabels); any
// other split makes the segments after the boundaries sub-traces.
func (s *segmenter) subTraces(resolved splitKind, run string) (segs []int32, labels []string) {
	if resolved == splitNone {
		return []int32{0}, []string{run}
	}
	for i, l := range s.labels {
		segs = append(segs, int32(i+1))
		labels = append(labels, l)
	}
	return segs, labels
}

// SplitEvents assigns each event of tr to a sub-trace (-1: none) as Build
// does with the same split specification ("" chooses marks or none), and
// returns the sub-traces.
func SplitEvents(tr *tracefile.Trace, split string) ([]int, []SubTrace, error) {
	s, err := newSegmenter(split, tr.Getters)
	if err != nil {
		return nil, nil, err
	}
	of := make([]int, len(tr.Events))
	eachRecord(tr, func(i int, ev *tracefile.Event, mk *tracefile.Marker) {
		if mk != nil {
			s.mark(mk)
		} else {
			of[i] = int(s.event(ev))
		}
	})
	split, kind := chooseSplit(split, s.sawMark)
	if err := checkAt(split, tr); err != nil {
		return nil, nil, err
	}
	segs, labels := s.subTraces(kind, runLabels([]runOf{{tr.Path, tr.Args}})[0])
	sub := map[int]int{}
	subs := make([]SubTrace, len(segs))
	for i := range segs {
		sub[int(segs[i])] = i
		subs[i] = SubTrace{Label: labels[i]}
	}
	for i, seg := range of {
		if k, ok := sub[seg]; ok {
			of[i] = k
		} else {
			of[i] = -1
		}
	}
	return of, subs, nil
}

// eachRecord hands the events and marks of a trace held in memory to fn
// in recording order (i is the event's index; -1 for a mark).
func eachRecord(tr *tracefile.Trace, fn func(i int, ev *tracefile.Event, mk *tracefile.Marker)) {
	mi := 0
	for i := range tr.Events {
		e := &tr.Events[i]
		for ; mi < len(tr.Marks) && tr.Marks[mi].Seq < e.Seq; mi++ {
			fn(-1, nil, &tr.Marks[mi])
		}
		fn(i, e, nil)
	}
	for ; mi < len(tr.Marks); mi++ {
		fn(-1, nil, &tr.Marks[mi])
	}
}
