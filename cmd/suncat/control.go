package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/suncat-go/suncat/logrt/host"
)

// The control commands reach a running instrumented program through
// logrt's control channel (a unix socket per process; see logrt/control.go).

var (
	markCmd = &command{
		name:  "mark",
		args:  "[-pid PID | -trace FILE] [-wait DURATION] [label]",
		short: "start a new sub-trace in a running instrumented program",
		order: 21,
		long: `
Mark records a labelled sub-trace boundary in the trace of a running
instrumented program, from another terminal. Run it before each repetition
of the action you are studying. When it returns, the mark is in the trace.

With one instrumented program running no selector is needed; otherwise
choose it with -pid or -trace (suncat lists the candidates). The program
is reached through a unix socket it serves (doc/control.md in suncat's
source); no signal is sent to it.

Examples:

	suncat mark "open stop 2"
	suncat mark -pid 4242
	suncat mark -trace /tmp/suncat-traces-1000/app-4242-20261122T101500.000000000.suncat
	./app & suncat mark -wait 10s start   # wait for the program to come up
`,
	}
	pauseCmd = &command{
		name:  "pause",
		args:  "[-pid PID | -trace FILE] [-wait DURATION]",
		short: "stop recording events in a running instrumented program",
		order: 22,
		long: `
Pause stops the recording of events (getter calls, and with -reads or
-calls field reads and calls) in a running instrumented program until
'suncat resume'; marks are still recorded. Use it to leave out work you
are not studying (start-up, navigation between repetitions). The program
is chosen as for 'suncat mark'.

Examples:

	suncat pause
	suncat pause -pid 4242
`,
	}
	resumeCmd = &command{
		name:  "resume",
		args:  "[-pid PID | -trace FILE] [-wait DURATION]",
		short: "resume recording events after pause",
		order: 23,
		long: `
Resume restarts the recording of events after 'suncat pause'. The
program is chosen as for 'suncat mark'.

Examples:

	suncat resume
	suncat resume -pid 4242
`,
	}
)

func init() {
	for _, c := range []*command{markCmd, pauseCmd, resumeCmd} {
		c := c
		c.run = func(stdout, stderr io.Writer, args []string) error { return runControl(c, stdout, stderr, args) }
		register(c)
	}
}

func runControl(c *command, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(c, stderr)
	pid := fs.Int("pid", 0, "the process to reach")
	trace := fs.String("trace", "", "the process writing this trace `file`")
	wait := fs.Duration("wait", 0, "keep trying for up to this long while no matching program answers")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	label := strings.Join(fs.Args(), " ")
	if c != markCmd && label != "" {
		return usagef("unexpected arguments %q", label)
	}
	if *pid != 0 && *trace != "" {
		return usagef("give -pid or -trace, not both")
	}
	target := *trace
	if *pid != 0 {
		target = fmt.Sprint(*pid)
	}
	if *wait < 0 {
		return usagef("-wait %v: negative duration", *wait)
	}
	deadline := time.Now().Add(*wait)
	p, err := host.SendControl(target, c.name, label)
	for err != nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		p, err = host.SendControl(target, c.name, label)
	}
	if err != nil {
		return err
	}
	what := map[string]string{"mark": "marked", "pause": "paused", "resume": "resumed"}[c.name]
	if label != "" {
		what += fmt.Sprintf(" %q", label)
	}
	fmt.Fprintf(stdout, "%s in %s (pid %d); trace: %s\n", what, p.Program, p.PID, p.Trace)
	return nil
}
