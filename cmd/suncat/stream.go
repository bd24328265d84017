package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/prioritize/stream"
	"github.com/suncat-go/suncat/tui"
)

// Summaries of traces too big to hold are read by package
// prioritize/stream (stream.Summarize); this file is its command-line
// side: the option errors as usage errors, the progress on stderr and in
// the viewer, and the closing line. loadSummary and the commands that
// summarize traces named on their command line (summary, view, pprof,
// delay -trace), demo, and test's closing findings, go through
// streamSummary; commands that need the events themselves (events, delay
// -compare) use readTraces.

// streamSummary reads and summarizes trace files (stream.Summarize).
// Errors reading a file are failures; errors of the summary (options the
// traces do not allow) are misuse. counts may be nil.
func streamSummary(files []*tracefile.File, opt prioritize.Options, counts *stream.Counts) (*stream.Result, error) {
	res, err := stream.Summarize(files, opt, stream.Config{Counts: counts})
	var oe *stream.OptionError
	if errors.As(err, &oe) {
		return nil, usagef("%w", summaryFlag(oe.Err))
	}
	return res, err
}

// progressLine describes a read in progress, for standard error.
func progressLine(c *stream.Counts) string {
	done, events := c.FilesDone.Load(), c.Events.Load()
	if done == int64(c.Files) {
		return fmt.Sprintf("summarizing %s events", commas(events))
	}
	return fmt.Sprintf("reading %d/%d files, %s of %s, %s events",
		done, c.Files, byteSize(c.Bytes.Load()), byteSize(c.BytesTotal), commas(events))
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
func loadStreamed(stderr io.Writer, cmd string, args []string, opt prioritize.Options) (*stream.Result, error) {
	files, notes, err := traceFiles(args)
	if err != nil {
		return nil, err
	}
	return streamFiles(stderr, cmd, files, notes, opt)
}

// streamFiles is loadStreamed of the files that traceFiles loaded, with
// its notes.
func streamFiles(stderr io.Writer, cmd string, files []*tracefile.File, notes []string, opt prioritize.Options) (*stream.Result, error) {
	counts := stream.NewCounts(files)
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
	unguard := guardMemory(environ, summaryMemLimit)
	res, err := streamSummary(files, opt, counts)
	unguard()
	stop()
	if err != nil {
		return nil, err
	}
	if took := time.Since(start); stderr != nil && took >= closing {
		fmt.Fprintf(stderr, "suncat: %s: %s\n", cmd, keptLine(res, took))
		if hint := framesHint(res, opt.Frames); hint != "" {
			fmt.Fprintf(stderr, "suncat: %s: %s\n", cmd, hint)
		}
	}
	res.Notes = append(notes, res.Notes...)
	return res, nil
}

// keptLine says how long a summary took and what it kept: what its
// memory is bounded by, whatever the number of events.
func keptLine(r *stream.Result, took time.Duration) string {
	stacks, terms, values, subs := r.Stacks, 0, 0, 0
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

// manyStacks is the number of stacks kept past which framesHint speaks,
// when they fold into framesFold times fewer call sites: about 4.5 KB a
// stack, half a gigabyte (doc/cases/bleve-reads.md).
const manyStacks, framesFold = 100_000, 20

// framesHint says, when a summary of whole stacks (frames 0) kept many
// times more stacks than it has call sites once they are folded (a
// recursion of varying depth makes a stack of nearly every call), that
// -frames cuts them; "" otherwise.
func framesHint(r *stream.Result, frames int) string {
	if frames > 0 || r.Stacks < manyStacks || r.Summary == nil || r.Summary.Findings == nil {
		return ""
	}
	sites := len(r.Summary.Findings.Sites)
	if sites == 0 || r.Stacks < framesFold*sites {
		return ""
	}
	return fmt.Sprintf("the %s stacks fold into %s call site(s): a recursion of varying depth makes a stack of nearly every call, "+
		"and each costs memory and time; -frames 16 keeps each stack's innermost 16 frames (summary -frames, check -frames)",
		commas(int64(r.Stacks)), commas(int64(sites)))
}

// showProgress writes the read's progress on w every tick, from delay
// on, until the returned function is called. live (a terminal) rewrites
// one line, cleared (if it was written) before stop returns; else each
// report is a line of its own.
func showProgress(w io.Writer, cmd string, counts *stream.Counts, delay, tick time.Duration, live bool) (stop func()) {
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
					fmt.Fprintf(w, "\r\x1b[Ksuncat: %s: %s", cmd, progressLine(counts))
				} else {
					fmt.Fprintf(w, "suncat: %s: %s\n", cmd, progressLine(counts))
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
func tuiProgress(c *stream.Counts, files []*tracefile.File) tui.Progress {
	p := tui.Progress{Phase: "reading", Files: c.Files, FilesDone: int(c.FilesDone.Load()), Bytes: c.Bytes.Load(), Events: int(c.Events.Load())}
	if p.FilesDone == c.Files {
		p.Phase = "summarizing"
	} else if c.Files == 1 {
		p.File = files[0].Path()
	}
	return p
}
