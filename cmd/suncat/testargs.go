package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// passFlag is a go test flag given to suncat test: it is recorded, in
// order, for go test.
type passFlag struct {
	name   string
	isBool bool
	to     *[]string
}

var _ flag.Value = passFlag{}

func (f passFlag) String() string   { return "" }
func (f passFlag) IsBoolFlag() bool { return f.isBool }
func (f passFlag) Set(v string) error {
	*f.to = append(*f.to, "-"+f.name+"="+v)
	return nil
}

// registerGoTestFlags adds the go test flags that test passes on, as given,
// to pass; -h lists test's own flags, then these by name only.
func registerGoTestFlags(fs *flag.FlagSet, pass *[]string, stderr io.Writer) {
	own := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) { own.Var(f.Value, f.Name, f.Usage) })
	var names []string
	for name, takes := range goTestFlags {
		fs.Var(passFlag{name: name, isBool: !takes, to: pass}, name, "passed to go test")
		names = append(names, "-"+name)
		if !goOnlyFlags[name] { // the test binaries' flag, also spelled -test.name
			fs.Var(passFlag{name: "test." + name, isBool: !takes, to: pass}, "test."+name, "passed to go test")
		}
	}
	sort.Strings(names)
	fs.Usage = func() {
		printCommandHelp(stderr, testCmd, own)
		fmt.Fprintf(stderr, "\ngo test flags given as they are to go test:\n  %s\n", strings.Join(names, " "))
	}
}

// flagValue finds the go test flag name among flags (-name, --name,
// -name=v, and -test.name for the test binaries' flags) and returns its
// last value: "true" for a bare -name.
func flagValue(flags []string, name string) (string, bool) {
	value, found := "", false
	for _, f := range flags {
		if !strings.HasPrefix(f, "-") {
			continue
		}
		f = strings.TrimPrefix(strings.TrimLeft(f, "-"), "test.")
		n, v, hasValue := strings.Cut(f, "=")
		if n != name {
			continue
		}
		if !hasValue {
			v = "true"
		}
		value, found = v, true
	}
	return value, found
}

// splitTestArgs separates test's own arguments from those for go test:
// the ones after "--", or -args and the ones after it (which go test
// passes to the test binaries as they are, "--" included), whichever
// comes first.
func splitTestArgs(args []string) (own, rest []string) {
	for i, a := range args {
		switch a {
		case "--":
			return args[:i], args[i+1:]
		case "-args", "--args":
			return args[:i], args[i:]
		}
	}
	return args, nil
}

// beforeArgs returns the flags before -args, which go test passes to the
// test binaries as they are.
func beforeArgs(flags []string) []string {
	for i, f := range flags {
		if f == "-args" || f == "--args" {
			return flags[:i]
		}
	}
	return flags
}
