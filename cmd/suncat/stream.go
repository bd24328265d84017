package main

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/tui"
)

// Summaries of traces too big to hold: streamSummary decodes each file
// with tracefile.DecodeFunc straight into a prioritize.Part, so no event is
// kept (memory grows with the distinct stacks and values, plus 4 bytes an
// event for the grammar), several files at once (one per CPU), and merges
// the parts. It is the summary half of the path in traces.go: loadSummary
// and the commands that summarize traces named on their command line
// (summary, view, pprof, delay -trace), demo, and test's closing findings, go
// through it; commands that need the events themselves (events, delay
// -compare) use readTraces.

// maxReaders, when positive, caps the files read at once (benchmarks
// compare one at a time with one per CPU).
var maxReaders int

// A streamed summary: the summary, and the traces without their events.
type streamed struct {
	Summary *prioritize.Summary
	Traces  []*tracefile.Trace // headers, getters and stacks, in file order
	Ends    []int64            // time of each trace's last event, ns since its start
	Events  int                // events read, in all the traces
	Notes   []string           // as readTraces' notes
}

// readCounts are a read's progress, updated while it runs.
type readCounts struct {
	files      int          // files to read
	filesDone  atomic.Int64 // files read
	bytes      atomic.Int64 // size of the files started
	bytesTotal int64        // size of all the files
	events     atomic.Int64 // events decoded, updated every few thousand
}

// streamSummary reads and summarizes trace files. Errors reading a file
// are failures; errors of the summary (options the traces do not allow)
// are misuse. counts may be nil.
//
// The files are taken in order of their start times (from their headers):
// readers decode them into their parts and compress the parts' sequences
// of stacks (streamFile), one per CPU at a time, and this goroutine
// merges each part as soon as it and those before it are done, which is
// renaming and adding up.
func streamSummary(files []string, opt prioritize.Options, counts *readCounts) (*streamed, error) {
	if err := prioritize.CheckOptions(opt); err != nil {
		return nil, usagef("%w", summaryFlag(err))
	}
	if counts == nil {
		counts = newReadCounts(files)
	}
	order, headers, err := byStart(files)
	if err != nil {
		return nil, err
	}
	m, err := prioritize.NewMergerOf(opt, headers)
	if err != nil {
		return nil, usagef("%w", summaryFlag(err))
	}
	res := &streamed{Traces: make([]*tracefile.Trace, len(files)), Ends: make([]int64, len(files))}
	type result struct {
		part *prioritize.Part
		err  error
	}
	done := make([]chan result, len(files))
	for i := range done {
		done[i] = make(chan result, 1)
	}
	var next atomic.Int64
	var failed atomic.Bool
	share := newStackShare()
	held := newByteBudget(maxHeld)
	readers := runtime.GOMAXPROCS(0)
	if maxReaders > 0 {
		readers = maxReaders
	}
	for w := 0; w < min(readers, len(files)); w++ {
		go func() {
			for k := int(next.Add(1) - 1); k < len(order); k = int(next.Add(1) - 1) {
				var r result
				if !failed.Load() {
					i := order[k]
					size := fileSize(files[i])
					held.acquire(size)
					r.part, res.Traces[i], res.Ends[i], r.err = streamFile(files[i], opt, counts, share)
					held.release(size)
				}
				counts.filesDone.Add(1)
				done[k] <- r
			}
		}()
	}
	var first error
	for k, i := range order {
		r := <-done[k]
		if first != nil || r.err != nil {
			failed.Store(true)
			first = cmp.Or(first, r.err)
			continue
		}
		if p := res.Traces[i].Problem(); p != "" {
			res.Notes = append(res.Notes, files[i]+": "+p)
		}
		res.Events += r.part.Events()
		m.Add(r.part)
	}
	if first != nil {
		return nil, first
	}
	if res.Summary, err = m.Summary(); err != nil {
		return nil, usagef("%w", summaryFlag(err))
	}
	return res, nil
}

// byStart returns the order of the files by their traces' start times
// (the order given, for equal times), reading only their headers.
func byStart(files []string) ([]int, []*tracefile.Trace, error) {
	hs := make([]*tracefile.Trace, len(files))
	order := make([]int, len(files))
	for i, f := range files {
		h, err := tracefile.ReadHeader(f)
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

func newReadCounts(files []string) *readCounts {
	c := &readCounts{files: len(files)}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			c.bytesTotal += fi.Size()
		}
	}
	return c
}

// streamFile decodes one trace into its finished part, returning the
// trace's header and the time of its last event. Finishing the part
// compresses its sequences of stacks, the costly half of the grammar, so
// that the readers do it in parallel and the merge is left little work.
func streamFile(path string, opt prioritize.Options, counts *readCounts, share *stackShare) (*prioritize.Part, *tracefile.Trace, int64, error) {
	part, head, end, err := decodePart(path, opt, counts)
	if err != nil {
		return nil, nil, 0, err
	}
	share.share(head)
	part.Finish(head) // the file's bytes are gone by now
	return part, head, end, nil
}

// maxHeld bounds the bytes of trace files that the readers hold at once
// (a reader holds its file's data while it decodes it): a file larger
// than the rest is read alone, rather than beside another.
const maxHeld = 512 << 20

// A byteBudget lets readers take bytes up to a limit; one reader may
// always take what it needs when no other holds any.
type byteBudget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	limit int64
	held  int64
}

func newByteBudget(limit int64) *byteBudget {
	b := &byteBudget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *byteBudget) acquire(n int64) {
	b.mu.Lock()
	for b.held > 0 && b.held+n > b.limit {
		b.cond.Wait()
	}
	b.held += n
	b.mu.Unlock()
}

func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.held -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

func fileSize(path string) int64 {
	if fi, err := os.Stat(path); err == nil {
		return fi.Size()
	}
	return 0
}

// A stackShare keeps one copy of the frames of the stacks that several
// traces recorded: the runs of one program at several sizes share most
// of their stacks, hundreds of thousands for a -reads trace, which each
// trace decodes on its own. Frames are never changed once decoded.
type stackShare struct {
	mu    sync.Mutex
	seed  maphash.Seed
	byKey map[uint64][]tracefile.Frame
}

func newStackShare() *stackShare {
	return &stackShare{seed: maphash.MakeSeed(), byKey: map[uint64][]tracefile.Frame{}}
}

// share makes the stacks of tr use the frames of an equal stack of a
// trace shared before, and offers its own to the next.
func (s *stackShare) share(tr *tracefile.Trace) {
	for i := range tr.Stacks {
		fs := tr.Stacks[i].Frames
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
			s.byKey[k] = fs
		case slices.Equal(old, fs):
			tr.Stacks[i].Frames = old
		}
		s.mu.Unlock()
	}
}

// decodePart decodes one trace into its part, before Finish.
func decodePart(path string, opt prioritize.Options, counts *readCounts) (*prioritize.Part, *tracefile.Trace, int64, error) {
	file, err := tracefile.Load(path)
	if err != nil {
		return nil, nil, 0, err
	}
	counts.bytes.Add(file.Size())
	// -split at=GETTER finds its boundaries by the getters' names: the
	// part learns the table as it is decoded, in the same pass.
	part, err := prioritize.NewPart(opt, nil)
	if err != nil {
		return nil, nil, 0, usagef("%w", summaryFlag(err))
	}
	needs := prioritize.NeedsGetters(opt)
	var n, end int64
	head, err := file.DecodeTraceFunc(func(tr *tracefile.Trace, ev *tracefile.Event, mk *tracefile.Marker) error {
		if ev != nil {
			end = ev.Time
			if n++; n == 1<<14 {
				counts.events.Add(n)
				n = 0
			}
			if needs {
				part.UseGetters(tr.Getters)
			}
		}
		return part.Add(ev, mk)
	})
	counts.events.Add(n)
	if err != nil {
		return nil, nil, 0, err
	}
	return part, head, end, nil
}

// progressLine describes a read in progress, for standard error.
func (c *readCounts) progressLine() string {
	done, events := c.filesDone.Load(), c.events.Load()
	if done == int64(c.files) {
		return fmt.Sprintf("summarizing %s events", commas(events))
	}
	return fmt.Sprintf("reading %d/%d files, %s of %s, %s events",
		done, c.files, byteSize(c.bytes.Load()), byteSize(c.bytesTotal), commas(events))
}

func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// loadStreamed expands the trace arguments of a command line and
// summarizes the traces with streamSummary, saying on stderr (nil:
// never) where a long read is and, at its end, how long it took and what
// the summary kept. On a terminal, a line rewritten four times a second
// shows the progress from the first second on, and the closing line
// comes after 5 seconds; elsewhere (a pipe, a log) a line every 30
// seconds, and the closing line after 30, so that quick reads and tests
// write nothing.
func loadStreamed(stderr io.Writer, cmd string, args []string, opt prioritize.Options) (*streamed, error) {
	files, notes, err := traceFiles(args)
	if err != nil {
		return nil, err
	}
	counts := newReadCounts(files)
	live := stderr != nil && isTerminal(stderr)
	delay, tick, closing := 30*time.Second, 30*time.Second, 30*time.Second
	if live {
		delay, tick, closing = time.Second, 250*time.Millisecond, 5*time.Second
	}
	start := time.Now()
	stop := func() {}
	if stderr != nil {
		stop = showProgress(stderr, cmd, counts, delay, tick, live)
	}
	res, err := streamSummary(files, opt, counts)
	stop()
	if err != nil {
		return nil, err
	}
	if took := time.Since(start); stderr != nil && took >= closing {
		fmt.Fprintf(stderr, "suncat: %s: %s\n", cmd, res.keptLine(took))
	}
	res.Notes = append(notes, res.Notes...)
	return res, nil
}

// keptLine says how long a summary took and what it kept: what its
// memory is bounded by, whatever the number of events.
func (r *streamed) keptLine(took time.Duration) string {
	stacks, terms, values, subs := 0, 0, 0, 0
	for _, tr := range r.Traces {
		stacks += len(tr.Stacks)
	}
	for _, g := range r.Summary.Groups {
		terms += len(g.Terminals)
		subs = max(subs, len(g.SubTraces))
		for _, t := range g.Terminals {
			values += len(t.Values)
		}
	}
	return fmt.Sprintf("summarized %d traces, %s events, in %s; kept %s stacks, %s call sites (getter and stack) in %d goroutine groups and %d sub-traces, %s distinct values",
		len(r.Traces), commas(int64(r.Events)), took.Round(100*time.Millisecond), commas(int64(stacks)), commas(int64(terms)), len(r.Summary.Groups), subs, commas(int64(values)))
}

// showProgress writes the read's progress on w every tick, from delay
// on, until the returned function is called. live (a terminal) rewrites
// one line, cleared (if it was written) before stop returns; else each
// report is a line of its own.
func showProgress(w io.Writer, cmd string, counts *readCounts, delay, tick time.Duration, live bool) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		shown := false
		timer := time.NewTimer(delay)
		defer timer.Stop()
		for {
			select {
			case <-done:
				if shown && live {
					fmt.Fprint(w, "\r\x1b[K")
				}
				return
			case <-timer.C:
				if live {
					fmt.Fprintf(w, "\r\x1b[Ksuncat: %s: %s", cmd, counts.progressLine())
				} else {
					fmt.Fprintf(w, "suncat: %s: %s\n", cmd, counts.progressLine())
				}
				shown = true
				timer.Reset(tick)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// tuiProgress is the read's progress as the viewer shows it.
func (c *readCounts) tuiProgress(files []string) tui.Progress {
	p := tui.Progress{Phase: "reading", Files: c.files, FilesDone: int(c.filesDone.Load()), Bytes: c.bytes.Load(), Events: int(c.events.Load())}
	if p.FilesDone == c.files {
		p.Phase = "summarizing"
	} else if c.files == 1 {
		p.File = files[0]
	}
	return p
}
