package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/suncat-go/suncat/export"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/prioritize/stream"
)

var pprofCmd = &command{
	name:  "pprof",
	args:  "[-o FILE] [-split ...] [-run REGEXP] TRACE|DIR...",
	short: "export the recorded calls of traces as a pprof profile",
	order: 42,
	long: `
Pprof writes the recorded events of the traces (getter calls, field
reads, calls) as a pprof profile (a gzipped
profile.proto), for go tool pprof and every tool that reads pprof
profiles. Sample types are calls/count (the default) and values/count
(distinct strings returned); there is one sample per call stack and
sub-trace, with the stack's functions, files and lines, and the labels
getter, goroutine and subtrace and the numeric label repetition
(the sub-trace's number), so -tagfocus and -tagshow select repetitions.
A call recorded with -calls sql or http has a sample per statement or
URL, whose leaf frame is named by it (label statement: the whole text).
Sub-traces are split as for summary (-split, -run); events outside them
are not in the profile.

Examples:

	suncat pprof -o calls.pb.gz trace.suncat
	go tool pprof -top calls.pb.gz
	go tool pprof -list 'visit' calls.pb.gz
	go tool pprof -top -tagfocus 'repetition=4' calls.pb.gz
	go tool pprof -top -diff_base before.pb.gz after.pb.gz
	go tool pprof -proto run1.pb.gz run2.pb.gz > merged.pb.gz
`,
}

func init() {
	pprofCmd.run = runPprof
	register(pprofCmd)
}

func runPprof(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(pprofCmd, stderr)
	out := fs.String("o", "", "write the profile to `FILE` (default: standard output, unless it is a terminal)")
	var sf summaryFlags
	sf.registerSubTraces(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give at least one trace file or directory")
	}
	if *out == "" && isTerminal(stdout) {
		return usagef("standard output is a terminal; give -o FILE or redirect it")
	}
	sf.noPatterns, sf.noGrammar = true, true // the profile shows neither
	res, _, err := sf.load(stderr, "pprof", fs.Args())
	if err != nil {
		return err
	}
	return writeProfile(stdout, *out, res.Summary, profileOptions(res))
}

// profileOptions gives the profile the program's name and the time span
// of the traces.
func profileOptions(res *stream.Result) export.ProfileOptions {
	var opt export.ProfileOptions
	var end time.Time
	for i, tr := range res.Traces {
		if opt.Program == "" {
			opt.Program = tr.Program
		}
		if opt.Start.IsZero() || tr.Start.Before(opt.Start) {
			opt.Start = tr.Start
		}
		if last := tr.Start.Add(time.Duration(res.Ends[i])); last.After(end) {
			end = last
		}
	}
	opt.Duration = end.Sub(opt.Start)
	return opt
}

func writeProfile(stdout io.Writer, path string, s *prioritize.Summary, opt export.ProfileOptions) error {
	if path == "" {
		if err := export.WriteProfile(stdout, s, opt); err != nil {
			return err
		}
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := export.WriteProfile(f, s, opt); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return nil
}
