package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

// The path of a trace through the commands: the traces named on a command
// line (files, or directories of .suncat files) are expanded and loaded
// by traceFiles (tracefile.Load reads each header, once; the later steps
// take the loaded files). The commands that need only the summary get it
// streaming (streamSummary, stream.go; loadSummary and loadRun go through
// it); events streams its one trace twice (File.Count, then DecodeFunc),
// and delay -compare decodes whole traces with readTraces, which also
// collects the notes on torn traces. summarize (stream_test.go), the
// whole-trace summary, is the reference the streaming path is tested
// against. Every path expands directories,
// reports torn traces and classifies errors alike: a trace that does not
// read is a failure (exit 1), a summary the options do not allow (-split,
// -goroutines, -run) is misuse (exit 2). doc/design.md tells the same.

// traceSet is what readTraces decoded.
type traceSet struct {
	Traces []*tracefile.Trace // one per file, in order
	Notes  []string           // one line per trace read with a problem the reader skipped
}

// Events returns the number of events in all the traces.
func (s *traceSet) Events() int {
	n := 0
	for _, tr := range s.Traces {
		n += len(tr.Events)
	}
	return n
}

// traceFiles expands the trace arguments of a command line to the files to
// read, loaded (their headers read, once: tracefile.Load): a file stands
// for itself, a directory for the .suncat files in it, in name order. A directory without one is an error. In a directory, a
// file that is not a regular file (a named pipe would block the read),
// or that holds no records (empty, or a header only: a program that
// recorded nothing), or that is another user's (planted in a shared
// folder), is skipped with a note; named, it is an error, or read as it
// is.
func traceFiles(args []string) (files []*tracefile.File, notes []string, err error) {
	for _, p := range args {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				return nil, nil, fmt.Errorf("%s: not a regular file", p)
			}
			f, err := tracefile.Load(p)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, f)
			continue
		}
		found := tracesIn(p)
		if len(found) == 0 {
			return nil, nil, fmt.Errorf("%s: no trace (*.suncat) in this directory", p)
		}
		kept := 0
		for _, f := range found {
			fi, err := os.Lstat(f)
			if err != nil || !fi.Mode().IsRegular() {
				notes = append(notes, f+": not a regular file, skipped")
				continue
			}
			if !ownedByMe(fi) {
				// In a folder others can write to (/tmp/traces), a
				// trace of theirs would mix into your results.
				notes = append(notes, f+": another user's file, skipped (name it to read it)")
				continue
			}
			tf, err := tracefile.Load(f)
			if err != nil {
				return nil, nil, err
			}
			ok, err := tf.HoldsRecords()
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				notes = append(notes, f+": no records (empty, or a header only), skipped")
				continue
			}
			files = append(files, tf)
			kept++
		}
		if kept == 0 {
			return nil, nil, fmt.Errorf("%s: no trace with records in this directory (%d skipped)", p, len(found))
		}
	}
	return files, notes, nil
}

// loadTraces loads the trace files at paths (tracefile.Load), as named.
func loadTraces(paths []string) ([]*tracefile.File, error) {
	files := make([]*tracefile.File, len(paths))
	for i, p := range paths {
		f, err := tracefile.Load(p)
		if err != nil {
			return nil, err
		}
		files[i] = f
	}
	return files, nil
}

// tracesIn returns the trace files in dir, in name order.
func tracesIn(dir string) []string {
	found, _ := filepath.Glob(filepath.Join(dir, "*.suncat"))
	sort.Strings(found)
	return found
}

// readTraces decodes the trace files. Before each file it calls progress
// (when not nil) with the traces decoded so far and the file.
func readTraces(files []*tracefile.File, progress func(read []*tracefile.Trace, next string)) (*traceSet, error) {
	s := &traceSet{}
	for _, f := range files {
		if progress != nil {
			progress(s.Traces, f.Path())
		}
		tr, err := f.Decode()
		if err != nil {
			return nil, err
		}
		if p := tr.Problem(); p != "" {
			s.Notes = append(s.Notes, f.Path()+": "+p)
		}
		s.Traces = append(s.Traces, tr)
	}
	return s, nil
}

// readTraceArgs expands and decodes the trace arguments of a command line.
func readTraceArgs(args []string) (*traceSet, error) {
	files, notes, err := traceFiles(args)
	if err != nil {
		return nil, err
	}
	set, err := readTraces(files, nil)
	if err != nil {
		return nil, err
	}
	set.Notes = append(notes, set.Notes...)
	return set, nil
}

// summaryFlagNames names the flag of each option of prioritize.Options.
var summaryFlagNames = map[string]string{"Split": "-split", "Goroutines": "-goroutines", "Run": "-run", "Frames": "-frames"}

// summaryFlag names the flag behind an error of package prioritize about
// an option's value: -split "weekly": want ...
func summaryFlag(err error) error {
	var oe *prioritize.OptionError
	if errors.As(err, &oe) {
		if name, ok := summaryFlagNames[oe.Option]; ok {
			return fmt.Errorf("%s %w", name, oe.Err)
		}
	}
	return err
}

// checkSummaryOptions reports the options that no trace allows (a -split,
// -goroutines or -run that does not parse), without reading a trace, so
// that a command can refuse them before it starts its work.
func checkSummaryOptions(opt prioritize.Options) error {
	if err := prioritize.CheckOptions(opt); err != nil {
		return usagef("%w", summaryFlag(err))
	}
	return nil
}

// loadSummary reads the traces named on a command line and summarizes
// them, streaming (stream.go); the notes are readTraces'.
func loadSummary(args []string, opt prioritize.Options) (*prioritize.Summary, []string, error) {
	res, err := loadStreamed(nil, "", args, opt)
	if err != nil {
		return nil, nil, err
	}
	return res.Summary, res.Notes, nil
}

// printNotes prints readTraces' notes for the command cmd.
func printNotes(stderr io.Writer, cmd string, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(stderr, "suncat: %s: note: %s\n", cmd, n)
	}
}

// newTraceDir makes the directory a program writes its traces into: dir
// if given, else a new directory under tracefmt.DefaultDir (this user's,
// private: tracefmt.MakeDefaultDir) named after what (run, test, ...) and
// the time. It returns the absolute path.
func newTraceDir(dir, what string) (string, error) {
	var err error
	if dir == "" {
		top, err := tracefmt.MakeDefaultDir()
		if err != nil {
			return "", err
		}
		if dir, err = os.MkdirTemp(top, what+"-"+time.Now().Format("20060102-150405")+"-"); err != nil {
			return "", err
		}
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o700)
}

// checkTraceDir checks, before anything is built, that dir (the value of
// flag; "" for the default) can be the directory of the traces: it is one
// that a file can be made in (not /proc/self, nor a read-only folder), or
// it is not there and nothing in its way is a file.
func checkTraceDir(flag, dir string) error {
	for d := dir; d != ""; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err == nil {
			switch {
			case fi.IsDir() && d == dir:
				return checkWritable(flag, dir)
			case fi.IsDir():
			case d == dir:
				return usagef("%s %s: not a directory", flag, dir)
			default:
				return usagef("%s %s: %s is not a directory", flag, dir, d)
			}
			return nil
		}
		if next := filepath.Dir(d); next == d {
			break
		}
	}
	return nil
}

// checkWritable checks that a file can be made in the directory dir, the
// value of flag: else the program would record nothing, and say so only
// in a line among its own output.
func checkWritable(flag, dir string) error {
	f, err := os.CreateTemp(dir, ".suncat-check-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return usagef("%s %s: a trace cannot be written there: %v", flag, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// traceEnv is the environment variable that sends a program's traces into
// dir.
func traceEnv(dir string) string {
	return tracefmt.TraceEnv + "=" + dir + string(filepath.Separator)
}

// loadRun reads one side of a comparison (diff, check): a trace, a
// directory of traces, or a summary written by summary -json (so a
// baseline can be committed). Traces are summarized streaming, as
// summary does (streamFiles); a file whose start is not a trace's header
// is looked at up to its first byte that is not blank to tell a summary. A path that
// cannot be read, like a trace or summary that does not decode, is a
// failure (exit 1), as in every other command. The findings of traces
// read the user's sources through src, and show frames frames of
// each stack (0: all), as summary -frames.
func loadRun(stderr io.Writer, cmd, path string, src *prioritize.Sources, frames int) (*prioritize.Summary, []string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, pathError(err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	files, notes, err := traceFiles([]string{path})
	if err != nil {
		return nil, nil, pathError(err)
	}
	if _, err := files[0].Header(); err != nil && !fi.IsDir() {
		if s, ok, err := readSummaryJSON(path); ok {
			return s, nil, err
		}
	}
	// A comparison reads findings only: no grammar, no patterns (their
	// sequences took 16 bytes an event, where the findings' memory is
	// bounded by the sites).
	res, err := streamFiles(stderr, cmd, files, notes, prioritize.Options{Goroutines: "each", Sources: src, Frames: frames,
		NoPatterns: true, NoGrammar: true})
	if err != nil {
		return nil, nil, err
	}
	return res.Summary, res.Notes, nil
}

// readSummaryJSON reads the file at path if it is a summary written by
// summary -json, told by its first byte that is not blank; ok reports
// whether it is one.
func readSummaryJSON(path string) (s *prioritize.Summary, ok bool, err error) {
	first, err := firstByte(path)
	if err != nil {
		return nil, true, pathError(err)
	}
	if first != '{' {
		return nil, false, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, true, pathError(err)
	}
	s, err = decodeSummaryJSON(path, data)
	return s, true, err
}

// firstByte returns the first byte of a file that is not blank (space,
// tab, CR, LF); 0 if there is none.
func firstByte(path string) (byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		b, err := r.ReadByte()
		switch {
		case err == io.EOF:
			return 0, nil
		case err != nil:
			return 0, err
		case b != ' ' && b != '\t' && b != '\r' && b != '\n':
			return b, nil
		}
	}
}

// decodeSummaryJSON reads a summary written by summary -json, of this
// schema version.
func decodeSummaryJSON(path string, data []byte) (*prioritize.Summary, error) {
	var s prioritize.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: not a summary written by suncat summary -json: %w", path, err)
	}
	if s.Version != prioritize.SchemaVersion {
		return nil, fmt.Errorf("%s: summary of schema version %d; want %d (write it again with suncat summary -json)", path, s.Version, prioritize.SchemaVersion)
	}
	return &s, nil
}

// pathError writes an error of the os package as "path: what": "x.json:
// no such file or directory" rather than "stat x.json: ...".
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
