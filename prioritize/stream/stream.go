package stream

import (
	"cmp"
	"hash/maphash"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// A Result is a streamed summary: the summary, and the traces without
// their events.
type Result struct {
	Summary *prioritize.Summary
	Traces  []*tracefile.Trace // headers and getters, in file order (no stacks, see Stacks)
	Ends    []int64            // time of each trace's last event, ns since its start
	Events  int                // events read, in all the traces
	Stacks  int                // stacks decoded, in all the traces
	Notes   []string           // "file: problem" of each torn or cut trace
}

// Config tunes Summarize.
type Config struct {
	Counts  *Counts // the read's progress, updated while it runs; nil: none
	Readers int     // files read at once; 0: one per CPU
}

// Counts are a read's progress, updated while it runs.
type Counts struct {
	Files      int          // files to read
	FilesDone  atomic.Int64 // files read
	Bytes      atomic.Int64 // size of the files started
	BytesTotal int64        // size of all the files
	Events     atomic.Int64 // events decoded, updated every few thousand
}

// NewCounts returns the counts of a read of files, none read yet.
func NewCounts(files []*tracefile.File) *Counts {
	c := &Counts{Files: len(files)}
	for _, f := range files {
		c.BytesTotal += f.Size()
	}
	return c
}

// An OptionError is an error of the options that the traces do not
// allow (a -split that does not parse, a -run that names no test): the
// caller's misuse, where every other error of Summarize is a trace that
// does not read. Err is prioritize's error, often a
// *prioritize.OptionError that names the option.
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// Summarize reads and summarizes trace files (tracefile.Load read their
// headers, which are not read again).
//
// The files are taken in order of their start times (from their headers):
// readers decode them into their parts and compress the parts' sequences
// of stacks (readFile), cfg.Readers at a time, and this goroutine merges
// each part as soon as it and those before it are done, which is
// renaming and adding up.
func Summarize(files []*tracefile.File, opt prioritize.Options, cfg Config) (*Result, error) {
	if err := prioritize.CheckOptions(opt); err != nil {
		return nil, &OptionError{err}
	}
	if cfg.Counts == nil {
		cfg.Counts = NewCounts(files)
	}
	order, headers, err := byStart(files)
	if err != nil {
		return nil, err
	}
	m, err := prioritize.NewMergerOf(opt, headers)
	if err != nil {
		return nil, &OptionError{err}
	}
	res := &Result{Traces: make([]*tracefile.Trace, len(files)), Ends: make([]int64, len(files))}
	var failed atomic.Bool
	done := startReaders(files, order, opt, cfg, res, &failed)
	var first error
	for k, i := range order {
		r := <-done[k]
		if first != nil || r.err != nil {
			failed.Store(true)
			first = cmp.Or(first, r.err)
			continue
		}
		if p := res.Traces[i].Problem(); p != "" {
			res.Notes = append(res.Notes, files[i].Path()+": "+p)
		}
		res.Events += r.part.Events()
		res.Stacks += r.stacks
		m.Add(r.part)
	}
	if first != nil {
		return nil, first
	}
	if res.Summary, err = m.Summary(); err != nil {
		return nil, &OptionError{err}
	}
	return res, nil
}

// A read is one file's finished part, or why it has none.
type read struct {
	part   *prioritize.Part
	stacks int // the trace's stacks, which it no longer holds
	err    error
}

// startReaders starts the readers of the files, in order, and returns
// where each read (by its place in order) is handed over. The readers
// fill in res's Traces and Ends; once failed is set (by the merge, at
// the first error in order: the reads before it are all done) they only
// count the files left as done.
func startReaders(files []*tracefile.File, order []int, opt prioritize.Options, cfg Config, res *Result, failed *atomic.Bool) []chan read {
	done := make([]chan read, len(files))
	for i := range done {
		done[i] = make(chan read, 1)
	}
	var next atomic.Int64
	share := newStackShare()
	var big sync.Mutex // held by the Finish of a large part (finish)
	readers := runtime.GOMAXPROCS(0)
	if cfg.Readers > 0 {
		readers = cfg.Readers
	}
	for w := 0; w < min(readers, len(files)); w++ {
		go func() {
			for k := int(next.Add(1) - 1); k < len(order); k = int(next.Add(1) - 1) {
				var r read
				if !failed.Load() {
					i := order[k]
					r.part, res.Traces[i], res.Ends[i], r.err = readFile(files[i], opt, cfg.Counts, share, &big)
					if r.err == nil {
						r.stacks = dropStacks(res.Traces[i])
					}
				}
				cfg.Counts.FilesDone.Add(1)
				done[k] <- r
			}
		}()
	}
	return done
}

// dropStacks drops a finished part's trace's stacks and returns how many
// it had: the part holds the frames of those its terminals show until
// it is merged (prioritize.Part.Finish), and nothing needs them after
// that. A -reads trace has hundreds of thousands of stacks of dozens of
// frames, which the summary's findings would otherwise hold to the end.
func dropStacks(tr *tracefile.Trace) int {
	n := len(tr.Stacks)
	tr.Stacks = nil
	return n
}

// byStart returns the order of the files by their traces' start times
// (the order given, for equal times), from the headers that Load read,
// and the headers in that order.
func byStart(files []*tracefile.File) ([]int, []*tracefile.Trace, error) {
	hs := make([]*tracefile.Trace, len(files))
	order := make([]int, len(files))
	for i, f := range files {
		h, err := f.Header()
		if err != nil {
			return nil, nil, err
		}
		hs[i], order[i] = h, i
	}
	sort.SliceStable(order, func(a, b int) bool { return hs[order[a]].Start.Before(hs[order[b]].Start) })
	sorted := make([]*tracefile.Trace, len(order))
	for k, i := range order {
		sorted[k] = hs[i]
	}
	return order, sorted, nil
}

// readFile decodes one trace into its finished part, returning the
// trace's header and the time of its last event. Finishing the part
// compresses its sequences of stacks, the costly half of the grammar, so
// that the readers do it in parallel and the merge is left little work;
// big, which the readers share (nil: none), makes the large ones take
// turns (finish).
func readFile(file *tracefile.File, opt prioritize.Options, counts *Counts, share *stackShare, big *sync.Mutex) (*prioritize.Part, *tracefile.Trace, int64, error) {
	part, head, end, err := decodePart(file, opt, counts, share)
	if err != nil {
		return nil, nil, 0, err
	}
	finish(part, head, !opt.NoGrammar, big) // the file's bytes are gone by now
	return part, head, end, nil
}

// bigPart is the number of events past which finish takes turns (a
// variable for the tests).
var bigPart = 4 << 20

// finishing, if not nil, is called by finish as it starts to finish a
// part, with whether it holds the readers' lock: the tests watch the
// turns with it.
var finishing func(locked bool)

// finish finishes part. Compressing a part's sequences for the grammar
// takes about 20 bytes an event at once, and two large ones side by side
// (two files read at once) made the peak of a summary with the grammar
// swing by a gigabyte from run to run: a part of more than bigPart events
// holds big while it finishes, and the other readers go on decoding.
func finish(part *prioritize.Part, head *tracefile.Trace, grammar bool, big *sync.Mutex) {
	locked := grammar && big != nil && part.Events() >= bigPart
	if locked {
		big.Lock()
		defer big.Unlock()
	}
	if finishing != nil {
		finishing(locked)
	}
	part.Finish(head)
}

// decodePart decodes one trace into its part, before Finish. The
// trace's stacks take the frames of equal stacks of the traces read
// before or beside it as soon as an event has them, so that their own
// copies do not outlive the events that made them.
func decodePart(file *tracefile.File, opt prioritize.Options, counts *Counts, share *stackShare) (*prioritize.Part, *tracefile.Trace, int64, error) {
	counts.Bytes.Add(file.Size())
	// -split at=GETTER finds its boundaries by the getters' names: the
	// part learns the table as it is decoded, in the same pass.
	part, err := prioritize.NewPart(opt, nil)
	if err != nil {
		return nil, nil, 0, &OptionError{err}
	}
	needs := prioritize.NeedsGetters(opt)
	var n, end int64
	shared := 0 // tr.Stacks shared so far (the decoder only appends)
	head, err := file.DecodeTraceFunc(func(tr *tracefile.Trace, ev *tracefile.Event, mk *tracefile.Marker) error {
		for ; shared < len(tr.Stacks); shared++ {
			tr.Stacks[shared].Cut(opt.Frames) // what the summary shows of it
			share.one(&tr.Stacks[shared])
		}
		if ev != nil {
			end = ev.Time
			if n++; n == 1<<14 {
				counts.Events.Add(n)
				n = 0
			}
			if needs {
				part.UseGetters(tr.Getters)
			}
		}
		return part.Add(ev, mk)
	})
	counts.Events.Add(n)
	if err != nil {
		return nil, nil, 0, err
	}
	if shared < len(head.Stacks) { // stacks no event had
		for i := shared; i < len(head.Stacks); i++ {
			head.Stacks[i].Cut(opt.Frames)
		}
		share.share(head)
	}
	return part, head, end, nil
}

// A stackShare keeps one copy of the frames of the stacks that several
// traces recorded: the runs of one program at several sizes share most
// of their stacks, hundreds of thousands for a -reads trace, which each
// trace decodes on its own. Frames are never changed once decoded.
type stackShare struct {
	mu    sync.Mutex
	seed  maphash.Seed
	byKey map[uint64]tracefile.Stack
}

func newStackShare() *stackShare {
	return &stackShare{seed: maphash.MakeSeed(), byKey: map[uint64]tracefile.Stack{}}
}

// share makes the stacks of tr use the frames of an equal stack of a
// trace shared before, and offers its own to the next.
func (s *stackShare) share(tr *tracefile.Trace) {
	for i := range tr.Stacks {
		s.one(&tr.Stacks[i])
	}
}

// one makes st use the frames of an equal stack shared before, or offers
// its own to the next.
func (s *stackShare) one(st *tracefile.Stack) {
	fs := st.Frames
	var h maphash.Hash
	h.SetSeed(s.seed)
	for _, f := range fs {
		h.WriteString(f.Func)
		h.WriteByte(0)
		h.WriteString(f.File)
		h.WriteByte(0)
		h.WriteString(strconv.Itoa(f.Line))
		h.WriteByte(0)
	}
	k := h.Sum64()
	s.mu.Lock()
	switch old, ok := s.byKey[k]; {
	case !ok:
		s.byKey[k] = *st
	case slices.Equal(old.Frames, fs):
		st.UseFrames(&old)
	}
	s.mu.Unlock()
}
