package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestDocCommands checks the suncat command lines of the README, BENCH.md
// and doc/: every `suncat CMD ...` (or `go run ./cmd/suncat CMD ...`) in a
// code block or an inline code span must name a command that exists, and
// every flag it gives must be one that command has (as its -h lists it),
// so that the manual cannot drift from the code. It reads files only: no
// build, no network.
func TestDocCommands(t *testing.T) {
	flags := commandFlags(t)
	files := docFiles(t)
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docCommands(string(data)) {
			checked++
			for _, problem := range checkDocCommand(c.words, flags) {
				t.Errorf("%s:%d: %s\n\t%s", relDoc(file), c.line, problem, c.text)
			}
		}
	}
	// The README alone names more than twenty; finding few means the
	// extraction broke, not that the docs are right.
	t.Logf("checked %d suncat command lines in %d files", checked, len(files))
	if checked < 100 {
		t.Errorf("found only %d suncat command lines in %d files", checked, len(files))
	}
}

// TestDocCommandsCheck makes sure the check can fail.
func TestDocCommandsCheck(t *testing.T) {
	flags := map[string]map[string]bool{"summary": {"level": true, "run": true}, "test": {"v": true, "run": true}}
	for _, tc := range []struct {
		doc  string
		want int // problems
	}{
		{"```sh\nsuncat summary -level all TRACE   # ok\n```\n", 0},
		{"```sh\nsuncat summary -bogus TRACE\n```\n", 1},
		{"```sh\nsuncat frobnicate TRACE\n```\n", 1},
		{"text `suncat summary --level=all` and `suncat\nsummary -nope` here\n", 1},
		{"```\n$ cd x && suncat test -v ./... -- -trimpath | tee out\n```\n", 0},
		{"```\nsuncat: summary: flag provided but not defined: -bogus\n```\n", 0},
		{"```\nsuncat test -run X \\\n  -bogus ./...\n```\n", 1},
		{"    suncat summary [-level L | -json] TRACE\n", 0},
		{"```\nrun.sh   # suncat built from this checkout\n```\n", 0},
		{"```\nsuncat summary -level all \"req 1\"; curl -s x; kill -INT %1\n```\n", 0},
		{"```\nx=$(suncat summary -run t)\n```\n", 0},
		{"```\nx=$(suncat summary -nope t)\n```\n", 1},
	} {
		n := 0
		for _, c := range docCommands(tc.doc) {
			n += len(checkDocCommand(c.words, flags))
		}
		if n != tc.want {
			t.Errorf("%q: %d problems, want %d", tc.doc, n, tc.want)
		}
	}
}

// commandFlags returns, for every command, the flags its -h lists.
func commandFlags(t *testing.T) map[string]map[string]bool {
	t.Helper()
	flagLine := regexp.MustCompile(`^\s+(-[A-Za-z0-9][\w.-]*)`)
	all := map[string]map[string]bool{}
	for name := range commands {
		var out bytes.Buffer
		run(&out, &out, []string{name, "-h"})
		set := map[string]bool{"h": true, "help": true}
		inFlags := false
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.HasSuffix(line, ":") && strings.Contains(line, "flags") {
				inFlags = true
				continue
			}
			if !inFlags {
				continue
			}
			if m := flagLine.FindStringSubmatch(line); m != nil {
				// "  -n\tusage" or "  -a -artifacts -bench ..." (the go test
				// flags that test passes on).
				for _, w := range strings.Fields(line) {
					if strings.HasPrefix(w, "-") {
						set[strings.TrimLeft(w, "-")] = true
					}
				}
			}
		}
		all[name] = set
	}
	if len(all["summary"]) < 5 {
		t.Fatalf("could not read the flags of summary -h: %v", all["summary"])
	}
	return all
}

func docFiles(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md"), filepath.Join(root, "BENCH.md")}
	more, err := filepath.Glob(filepath.Join(root, "doc", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(more) == 0 {
		t.Fatal("no doc/*.md files")
	}
	cases, err := filepath.Glob(filepath.Join(root, "doc", "cases", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(append(files, more...), cases...)
}

func relDoc(file string) string {
	return strings.TrimPrefix(filepath.ToSlash(file), "../../")
}

type docCommand struct {
	line  int      // line of the file where it starts
	text  string   // as written
	words []string // the words from the command's name on
}

var suncatCall = regexp.MustCompile(`(?:^|[\s;&|(])(?:go run \./cmd/suncat|suncat)\s+([a-z]\S*)`)

// docCommands finds the suncat command lines of a markdown text: in
// fenced and indented code blocks (where a line may go on after a
// trailing backslash) and in inline code spans (which may wrap).
func docCommands(doc string) []docCommand {
	var found []docCommand
	lines := strings.Split(doc, "\n")
	fenced := false
	prevBlank := true
	var para []string // inline text of the current paragraph
	paraStart := 0
	flush := func() {
		text := strings.Join(para, " ")
		for _, span := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(text, -1) {
			found = append(found, callsIn(span[1], paraStart)...)
		}
		para = nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			flush()
			fenced = !fenced
			prevBlank = false
			continue
		}
		indented := !fenced && strings.HasPrefix(line, "    ") && prevBlank && len(para) == 0
		if fenced || indented {
			start := i + 1
			for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
				i++
				line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(lines[i])
			}
			found = append(found, callsIn(stripComment(line), start)...)
			if indented {
				prevBlank = true // an indented block goes on to its next line
			}
			continue
		}
		if trimmed == "" {
			flush()
			prevBlank = true
			continue
		}
		if len(para) == 0 {
			paraStart = i + 1
		}
		para = append(para, trimmed)
		prevBlank = false
	}
	flush()
	return found
}

// callsIn returns the suncat commands in one line of shell (or one code
// span), each up to the end of its own words.
func callsIn(text string, line int) []docCommand {
	var found []docCommand
	for _, m := range suncatCall.FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if strings.ContainsAny(name, ":[<") {
			continue // output ("suncat: ...", "suncat demo: ..."), a synopsis placeholder
		}
		words := shellWords(text[m[2]:])
		found = append(found, docCommand{line: line, text: strings.TrimSpace(text), words: words})
	}
	return found
}

// stripComment cuts a shell comment (a # after a blank, outside quotes)
// off a line.
func stripComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// shellWords splits a command line into words up to where the command
// ends: a pipe, a redirection, a list operator or a comment.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("|;&><)", c) >= 0, c == '#' && !inWord:
			// Unquoted, these end the command, inside a word or not
			// ("label"; next, 2>/dev/null, $(suncat ...)).
			if inWord {
				words = append(words, cur.String())
			}
			return words
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// checkDocCommand checks one command's words (its name first) against the
// commands' flags, and returns what is wrong.
func checkDocCommand(words []string, flags map[string]map[string]bool) []string {
	if len(words) == 0 {
		return nil
	}
	name := words[0]
	if name == "help" {
		return nil
	}
	set, ok := flags[name]
	if !ok {
		return []string{fmt.Sprintf("no command %q", name)}
	}
	var problems []string
	for _, w := range words[1:] {
		if w == "--" || w == "-args" || w == "--args" {
			break // the rest is the program's, or go test's
		}
		w = strings.TrimLeft(w, "[")
		if !strings.HasPrefix(w, "-") || w == "-" {
			continue
		}
		f := strings.TrimLeft(w, "-")
		if i := strings.IndexAny(f, "=]"); i >= 0 {
			f = f[:i]
		}
		if f == "" || strings.HasPrefix(f, ".") {
			continue // "...", as in "-h ..."
		}
		f = strings.TrimPrefix(f, "test.") // suncat test -test.run, as go test takes it
		if !set[f] {
			problems = append(problems, fmt.Sprintf("%s has no flag -%s", name, f))
		}
	}
	sort.Strings(problems)
	return problems
}

// TestDocTranscripts runs the transcripts of the docs that read only files
// of the repository or standard input: a code block line "$ suncat CMD
// ..." (or "$ echo ... | suncat CMD ...", "$ printf '...' | suncat CMD
// ...") for a command that only reads (grammar, summary, events),
// followed by its output, which must be what the command prints now.
// Outputs with an elided line ("...") are not compared.
func TestDocTranscripts(t *testing.T) {
	readOnly := map[string]bool{"grammar": true, "summary": true, "events": true}
	var all []docTranscript
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range docTranscripts(string(data)) {
			tr.file = relDoc(file)
			all = append(all, tr)
		}
	}
	t.Chdir(filepath.Join("..", ".."))
	ran := 0
	for _, tr := range all {
		stdin, words, ok := transcriptCommand(tr.command)
		if !ok || len(words) == 0 || !readOnly[words[0]] || strings.Contains("\n"+tr.output, "\n...") {
			continue
		}
		missing := false
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && strings.Contains(w, "/") {
				if _, err := os.Stat(w); err != nil {
					missing = true
				}
			}
		}
		if missing {
			continue
		}
		ran++
		got, err := runWithStdin(t, words, stdin)
		if err != nil {
			t.Errorf("%s:%d: $ %s: %v", tr.file, tr.line, tr.command, err)
			continue
		}
		if got != tr.output {
			t.Errorf("%s:%d: $ %s prints something else now; update the doc.\ndoc:\n%s\nnow:\n%s", tr.file, tr.line, tr.command, tr.output, got)
		}
	}
	t.Logf("ran %d transcripts", ran)
	if ran < 3 {
		t.Errorf("ran only %d transcripts (grammar.md has two, summary.md one)", ran)
	}
}

type docTranscript struct {
	file    string
	line    int
	command string // after "$ "
	output  string // the lines after it, each ending in a newline
}

// docTranscripts finds the "$ command" lines of fenced code blocks and
// the output lines after each.
func docTranscripts(doc string) []docTranscript {
	var found []docTranscript
	var cur *docTranscript
	fenced := false
	end := func() {
		if cur != nil {
			found = append(found, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			end()
			fenced = !fenced
			continue
		}
		if !fenced {
			continue
		}
		if strings.HasPrefix(line, "$ ") {
			end()
			cur = &docTranscript{line: i + 1, command: strings.TrimPrefix(line, "$ ")}
			continue
		}
		if cur != nil {
			cur.output += line + "\n"
		}
	}
	return found
}

// transcriptCommand splits "suncat CMD ARGS", "echo WORDS | suncat CMD
// ARGS" or "printf 'TEXT' | suncat CMD ARGS" into standard input and the
// words after suncat; ok is false for anything else.
func transcriptCommand(cmd string) (stdin string, words []string, ok bool) {
	if strings.ContainsAny(cmd, ";&><`$") && !strings.HasPrefix(cmd, "printf '") {
		return "", nil, false
	}
	if i := strings.Index(cmd, " | suncat "); i >= 0 {
		feed := shellWords(cmd[:i])
		switch {
		case len(feed) > 1 && feed[0] == "echo":
			stdin = strings.Join(feed[1:], " ") + "\n"
		case len(feed) == 2 && feed[0] == "printf" && !strings.Contains(feed[1], "%"):
			stdin = strings.ReplaceAll(feed[1], `\n`, "\n")
		default:
			return "", nil, false
		}
		cmd = cmd[i+len(" | "):]
	}
	if !strings.HasPrefix(cmd, "suncat ") || strings.ContainsAny(cmd, "|") {
		return "", nil, false
	}
	return stdin, shellWords(strings.TrimPrefix(cmd, "suncat ")), true
}

// runWithStdin runs the command line in this process with stdin as its
// standard input and returns its standard output.
func runWithStdin(t *testing.T, words []string, stdin string) (string, error) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(stdin); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	var out, errOut bytes.Buffer
	err = run(&out, &errOut, words)
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, errOut.String())
	}
	return out.String(), nil
}

// TestDocGoTests checks the go test command lines of the docs' code
// blocks (mostly BENCH.md's): each package named exists, each -run and
// -bench pattern matches a test or benchmark of those packages, and each
// flag that is not go test's own is defined by their tests (-update), so
// a renamed benchmark cannot leave its command behind.
func TestDocGoTests(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range docGoTests(string(data)) {
			checked++
			pkgs, patterns, own := docGoTestArgs(c.words)
			for _, p := range pkgs {
				if strings.HasSuffix(p, "/...") {
					continue
				}
				dir := filepath.Join(root, filepath.FromSlash(p))
				tests, flags := testFuncs(t, dir)
				if tests == nil {
					t.Errorf("%s:%d: no package %s with tests\n\t%s", relDoc(file), c.line, p, c.text)
					continue
				}
				for kind, pat := range patterns {
					if pat == "" || pat == "^$" || pat == "." {
						continue
					}
					first := strings.SplitN(pat, "/", 2)[0]
					re, err := regexp.Compile(first)
					if err != nil {
						t.Errorf("%s:%d: -%s %q: %v", relDoc(file), c.line, kind, pat, err)
						continue
					}
					prefix := map[string]string{"run": "Test", "bench": "Benchmark"}[kind]
					found := false
					for _, name := range tests {
						if strings.HasPrefix(name, prefix) && re.MatchString(name) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s:%d: -%s %q matches no %s function in %s\n\t%s", relDoc(file), c.line, kind, pat, prefix, p, c.text)
					}
				}
				for _, f := range own {
					if !flags[f] {
						t.Errorf("%s:%d: -%s is neither go test's flag nor one the tests of %s define\n\t%s", relDoc(file), c.line, f, p, c.text)
					}
				}
			}
		}
	}
	t.Logf("checked %d go test command lines", checked)
	if checked < 15 {
		t.Errorf("found only %d go test command lines", checked)
	}
}

// goCommandFlags are the flags of go test (and its build flags) that the
// docs give.
var goCommandFlags = strings.Fields("run bench benchtime benchmem count cpu short timeout json v race fuzz fuzztime tags c o cover skip parallel failfast list shuffle")

// docGoTestArgs returns the packages of a go test command line's words
// (./...), its -run and -bench patterns, and the flags it gives that are
// not go test's own.
func docGoTestArgs(words []string) (pkgs []string, patterns map[string]string, own []string) {
	patterns = map[string]string{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.HasPrefix(w, "./"):
			pkgs = append(pkgs, w)
		case strings.HasPrefix(w, "-"):
			name := strings.TrimLeft(w, "-")
			value := ""
			if j := strings.IndexByte(name, '='); j >= 0 {
				name, value = name[:j], name[j+1:]
			} else if (name == "run" || name == "bench") && i+1 < len(words) {
				i++
				value = words[i]
			}
			if name == "run" || name == "bench" {
				patterns[name] = value
			} else if !slices.Contains(goCommandFlags, name) {
				own = append(own, name)
			}
		}
	}
	return pkgs, patterns, own
}

// docGoTests finds the "go test" command lines of code blocks.
func docGoTests(doc string) []docCommand {
	var found []docCommand
	fenced, prevBlank := false, true
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			continue
		}
		indented := !fenced && strings.HasPrefix(line, "    ") && prevBlank
		prevBlank = trimmed == "" || indented
		if !fenced && !indented {
			continue
		}
		code := stripComment(line)
		k := strings.Index(code, "go test ")
		if k < 0 {
			continue
		}
		found = append(found, docCommand{line: i + 1, text: trimmed, words: shellWords(code[k+len("go test "):])})
	}
	return found
}

var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`)
var testFlag = regexp.MustCompile(`flag\.\w+\("([\w.-]+)"`)

// testFuncs returns the test, benchmark and fuzz functions of the package
// in dir, and the flags its test files define; nil if it has none.
func testFuncs(t *testing.T, dir string) ([]string, map[string]bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		return nil, nil
	}
	var names []string
	flags := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(data), -1) {
			names = append(names, m[1])
		}
		for _, m := range testFlag.FindAllStringSubmatch(string(data), -1) {
			flags[m[1]] = true
		}
	}
	return names, flags
}

// TestDocLinks checks that every file of doc/ is listed in doc/README.md,
// the table of contents, every case of doc/cases/ in doc/cases.md, its
// index, and that the relative links of the README, BENCH.md, doc/ and
// doc/cases/ lead to files that exist.
func TestDocLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	index, err := os.ReadFile(filepath.Join(root, "doc", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadFile(filepath.Join(root, "doc", "cases.md"))
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, file := range docFiles(t) {
		base := filepath.Base(file)
		switch filepath.Base(filepath.Dir(file)) {
		case "doc":
			if base != "README.md" && !strings.Contains(string(index), "]("+base+")") {
				t.Errorf("doc/README.md does not list %s", base)
			}
		case "cases":
			if !strings.Contains(string(cases), "](cases/"+base+")") {
				t.Errorf("doc/cases.md does not list cases/%s", base)
			}
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target = strings.SplitN(target, "#", 2)[0]
			if _, err := os.Stat(filepath.Join(filepath.Dir(file), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link to %s: no such file", relDoc(file), m[1])
			}
		}
	}
}
