package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

var eventsCmd = &command{
	name:  "events",
	args:  "[-stacks] [-getters] TRACE|DIR",
	short: "print the events of a trace, one per line",
	order: 30,
	long: `
Events decodes a trace file and prints its events and marks in the order
they were recorded, one per line (a directory holding one trace will do):

	seq  time  goroutine  getter  stack  value

time is the time since the program started, goroutine is the function the
goroutine started in, stack is the id of the interned call stack (see
-stacks) and value is the returned string, quoted. Marks, pauses and resumes
print as "-- mark label" lines in their place.

Examples:

	suncat events /tmp/suncat-traces-1000/busapp-1234-20261122T101500.000000000.suncat
	suncat events -stacks -getters trace.suncat
`,
}

func init() {
	eventsCmd.run = runEvents
	register(eventsCmd)
}

func runEvents(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(eventsCmd, stderr)
	stacks := fs.Bool("stacks", false, "also print the stack table")
	getters := fs.Bool("getters", false, "also print the getter table")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one trace file, got %d arguments", fs.NArg())
	}
	file, err := resolveTrace(fs.Arg(0))
	if err != nil {
		return err
	}
	// Two passes over the file's data, keeping no event: the first counts
	// the events and marks for the heading and gathers the tables, the
	// second prints the events as they are decoded. Memory is the file's
	// data and its stacks, whatever the number of events.
	tr, marks, err := file.Count()
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	printEventsHead(out, tr, tr.EventsRead, marks, *getters, *stacks)
	if _, err := file.DecodeFunc(func(ev *tracefile.Event, mk *tracefile.Marker) error {
		if mk != nil {
			printMark(out, *mk)
		} else {
			printEvent(out, tr, ev)
		}
		return nil
	}); err != nil {
		return err
	}
	return out.Flush()
}

// printEventsHead prints what events prints before the events: the
// trace's heading, its problem, and the tables asked for.
func printEventsHead(out io.Writer, tr *tracefile.Trace, events, marks int, getters, stacks bool) {
	fmt.Fprintf(out, "# trace %s: program %s, pid %d, started %s, %d events, %d marks, %d stacks\n",
		tr.Path, tr.Program, tr.PID, tr.Start.Format(time.RFC3339), events, marks, len(tr.Stacks))
	if len(tr.Args) > 0 {
		q := make([]string, len(tr.Args))
		for i, a := range tr.Args {
			q[i] = strconv.Quote(a)
		}
		fmt.Fprintf(out, "# arguments: %s\n", strings.Join(q, " "))
	}
	if p := tr.Problem(); p != "" {
		fmt.Fprintf(out, "# %s\n", p)
	}
	if getters {
		fmt.Fprintf(out, "# getters\n")
		for _, g := range tr.Getters {
			if g.ID != 0 {
				fmt.Fprintf(out, "getter %d %s.%s %s:%d field %s\n", g.ID, g.Package, g.Name(), g.File, g.Line, g.Field)
			}
		}
	}
	if stacks {
		fmt.Fprintf(out, "# stacks\n")
		for _, s := range tr.Stacks {
			fmt.Fprintf(out, "stack %d entry %s\n", s.ID, s.Entry)
			for _, f := range s.Frames {
				fmt.Fprintf(out, "\t%s\n\t\t%s:%d\n", f.Func, f.File, f.Line)
			}
			if s.Truncated {
				fmt.Fprintf(out, "\t...\n")
			}
		}
	}
	fmt.Fprintf(out, "# seq time goroutine getter stack value\n")
}

// printEvent prints one event of tr.
func printEvent(out io.Writer, tr *tracefile.Trace, e *tracefile.Event) {
	name := "getter" + strconv.Itoa(int(e.Getter))
	if g, ok := tr.GetterOf(e.Getter); ok {
		name = g.Name()
	}
	v := strconv.Quote(e.Value)
	if e.Truncated {
		v += fmt.Sprintf("...(%d bytes in all)", e.Len)
	}
	fmt.Fprintf(out, "%d %s %s %s %d %s\n", e.Seq, fmtTime(e.Time), e.Entry, name, e.Stack, v)
}

// resolveTrace accepts a trace file, or a directory holding exactly one.
func resolveTrace(path string) (*tracefile.File, error) {
	files, _, err := traceFiles([]string{path})
	if err != nil {
		return nil, err
	}
	if len(files) > 1 {
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = f.Path()
		}
		return nil, fmt.Errorf("%s: %d traces in this directory, name one: %s", path, len(files), strings.Join(names, ", "))
	}
	return files[0], nil
}

func printMark(w io.Writer, m tracefile.Marker) {
	label := ""
	if m.Label != "" {
		label = " " + strconv.Quote(m.Label)
	}
	fmt.Fprintf(w, "%d %s -- %s%s\n", m.Seq, fmtTime(m.Time), m.Kind, label)
}

func fmtTime(ns int64) string {
	return strconv.FormatFloat(float64(ns)/1e9, 'f', 6, 64) + "s"
}
