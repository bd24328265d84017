package instrument

import (
	"fmt"
	"go/token"
	"io"
	"regexp"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Getter is a function classified as a string getter.
type Getter struct {
	ID       uint32 // 1-based, dense, in (package, file, offset) order
	Kind     string `json:",omitempty"` // KindGetter (""), or KindRead or KindCall for the events of -reads and -calls
	PkgPath  string
	Receiver string         // "*Stop", "Stop", "List[T]", "" for functions
	Method   string         // method or function name
	Pos      token.Position // of the func declaration
	Field    string         // the field(s) returned, e.g. "name" or "stop.name"
	Why      string         // why it was accepted

	// What the rewrite needs to know about the result.
	ResultIndex int    // index of the string among the results
	NumResults  int    // number of results
	ResultType  string // "" for string, else the named string type as written in its package
}

// Runtime returns the getter as a trace's getter table records it.
func (g Getter) Runtime() tracefmt.Getter {
	return tracefmt.Getter{ID: g.ID, Package: g.PkgPath, Receiver: g.Receiver, Method: g.Method,
		File: g.Pos.Filename, Line: g.Pos.Line, Field: g.Field}
}

// Name returns the getter's readable name: "Stop.Name", "(*Stop).Name" or
// the function name.
func (g Getter) Name() string {
	return tracefmt.Getter{Receiver: g.Receiver, Method: g.Method}.Name()
}

// A Rejected function returns a string but is not a getter.
type Rejected struct {
	PkgPath  string
	Receiver string
	Method   string
	Pos      token.Position
	Why      string
}

// Name returns the function's readable name, as Getter.Name does.
func (r Rejected) Name() string {
	return Getter{Receiver: r.Receiver, Method: r.Method}.Name()
}

// Options control the analysis.
type Options struct {
	Dir        string   // the user's working directory
	Patterns   []string // package patterns; default "."
	BuildFlags []string // passed to the go command (-tags etc.)
	Funcs      bool     // also classify plain functions
	Match      *regexp.Regexp
	Skip       *regexp.Regexp
	Progress   io.Writer // progress lines; nil for none
	NoCache    bool      // analyze even if the sources are unchanged
	// Deps also analyzes the dependency packages whose import paths match
	// these comma-separated patterns ("example.com/lib/...").
	Deps string
	// Tests also follows the imports of the patterns' test files, and
	// lists those files (Analysis.TestFiles).
	Tests bool
	// Reads also records every read of a struct field (events.go).
	Reads bool
	// Loops also records every turn of every loop (events.go).
	Loops bool
	// Calls also records the calls chosen by -calls (ParseCalls).
	Calls string

	named string // the patterns as the user gave them, for messages
}

// An Analysis is the result of Analyze.
type Analysis struct {
	Getters  []Getter
	Rejected []Rejected
	// Main is the main module's path and directory.
	ModulePath string
	ModuleDir  string
	// Packages are the analyzed packages (the main module's packages in
	// the import graph of the patterns).
	Packages []string
	// Commands are the patterns' packages that are commands (package main).
	Commands []string
	// DepModules are the dependency modules holding analyzed packages
	// (-deps).
	DepModules []DepModule
	// DepHints say, for a -deps pattern that names a module's path, how
	// many more of its packages the program uses (depHints).
	DepHints []string `json:",omitempty"`
	// TestFiles are the _test.go files of the patterns' packages of the
	// main module (with Options.Tests).
	TestFiles []string `json:",omitempty"`
	// Roots are the import paths of the patterns' packages (with
	// Options.Tests), for go test, which would otherwise also match the
	// runtime's overlay-only packages with a pattern like ./...
	Roots []string `json:",omitempty"`
	// Sites are the reads and calls recorded with Options.Reads and
	// Options.Calls, whose table entries follow the getters in Getters
	// (Kind KindRead or KindCall); the sites of the built-in sets sql and
	// http are in the standard library and not listed (Hooks).
	Sites []Site `json:",omitempty"`
	// Hooks are the built-in sets of -calls recorded in the standard
	// library: "sql", "http".
	Hooks []string `json:",omitempty"`
	// MainFile is a file of the command (with Options.Reads or Calls),
	// which imports the runtime, so that a program with no getter still
	// records its reads and calls.
	MainFile string `json:",omitempty"`
}

// A DepModule is a dependency module instrumented with -deps.
type DepModule struct {
	Path, Version string
	Dir           string // where its files are (the module cache, or a replacement)
	Replaced      bool   // the user's go.mod replaces it already
}

// NumGetters returns how many getters the analysis instruments (the
// entries of Getters that are getters, not reads or calls), and Events
// says how many fields and functions whose reads and calls it records
// with -reads and -calls: ", 40 field(s) read, 9 function(s) called", or
// "" without them.
func (a *Analysis) NumGetters() int {
	n := 0
	for _, g := range a.Getters {
		if g.Kind == KindGetter {
			n++
		}
	}
	return n
}

// Events: see NumGetters. With -loops it adds ", 12 loop(s)".
func (a *Analysis) Events() string {
	var reads, calls, loops int
	for _, g := range a.Getters {
		switch {
		case g.Kind == KindRead && g.Field == tracefmt.TurnField:
			loops++
		case g.Kind == KindRead:
			reads++
		case g.Kind == KindCall:
			calls++
		}
	}
	if reads+calls+loops == 0 {
		return ""
	}
	s := fmt.Sprintf(", %d field(s) read, %d function(s) called", reads, calls)
	if loops > 0 {
		s += fmt.Sprintf(", %d loop(s)", loops)
	}
	return s
}
