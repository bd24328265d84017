package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// A command is one suncat subcommand. Each lives in its own file and adds
// itself to the table with register from an init function, so commands do
// not share a file.
type command struct {
	name  string // as typed: "grammar"
	args  string // synopsis after the name: "[-json] [file]"
	short string // one line for the command list
	long  string // help text, examples included; printed by -h
	order int    // position in the command list (workflow order)
	run   func(stdout, stderr io.Writer, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("suncat: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// usageError marks misuse of the command line; it exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error; its format takes %w as fmt.Errorf's does.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries an exit status with nothing to print (for example the
// status of a program that suncat ran on the user's behalf).
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// silentError is an error that has already been reported to the user.
type silentError struct{ error }

func (e silentError) Unwrap() error { return e.error }

// run is the whole command line interface, testable without a process.
func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		printUsage(stderr)
		return silentError{usagef("no command")}
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				printCommandHelp(stdout, c, nil)
				return nil
			}
			return usagef("help: unknown command %q", args[1])
		}
		printUsage(stdout)
		return nil
	}
	c, ok := commands[name]
	if !ok {
		return usagef("unknown command %q (run 'suncat help' for the list)", name)
	}
	if err := c.run(stdout, stderr, args[1:]); err != nil {
		// The one place that names the command in its errors.
		return fmt.Errorf("%s: %w", c.name, err)
	}
	return nil
}

// newFlagSet returns a FlagSet for c whose -h prints the command's help.
// Parse errors are returned, not printed (see parseFlags).
func newFlagSet(c *command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("suncat "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printCommandHelp(stderr, c, fs) }
	return fs
}

// parseFlags parses args with fs and turns flag errors into usage errors.
// It returns flag.ErrHelp unchanged-in-kind (as a silent success) for -h.
// Flags may also follow the positional arguments ("suncat summary trace
// -level patterns"); "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := parseQuietly(fs, args); err != nil {
			if err == flag.ErrHelp {
				fs.Usage()
				return silentError{exitError(0)}
			}
			// One line, as the go command says it: the usage is a -h away.
			return usagef("%w; run '%s -h' for usage", err, fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			positional = append(positional, rest...) // after "--": all positional
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Leave the positional arguments where fs.Args finds them.
	return fs.Parse(append([]string{"--"}, positional...))
}

// parseQuietly is fs.Parse without the flag package's own report of a
// bad flag (its message and the whole usage): the caller reports it.
func parseQuietly(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	defer func() { fs.Usage = usage; fs.SetOutput(out) }()
	return fs.Parse(args)
}

// splitDashDash separates a command's own arguments from those after "--",
// which belong to the program it runs.
func splitDashDash(args []string) (own, rest []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n", strings.TrimSpace("usage: suncat "+c.name+" "+c.args))
	if c.long != "" {
		fmt.Fprintln(w, strings.TrimSpace(c.long))
		fmt.Fprintln(w)
	}
	if fs != nil {
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "flags:")
			fs.SetOutput(w)
			fs.PrintDefaults()
		}
	}
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `suncat finds the code of a Go program that will get slow for big inputs.

usage: suncat <command> [flags] [arguments]

commands:
`)
	list := make([]*command, 0, len(commands))
	for _, c := range commands {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].order != list[j].order {
			return list[i].order < list[j].order
		}
		return list[i].name < list[j].name
	})
	for _, c := range list {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, "\nRun 'suncat help <command>' or 'suncat <command> -h' for details.\n")
}
