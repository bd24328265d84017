package instrument

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/scanner"
	"go/token"
	"go/version"
	"strings"
)

// The rewrite of reads and calls calls the runtime's generic functions
// (logrt/events.go), which a file compiled under a language version older
// than go1.18 cannot call, and reads a map with an interface key as
// ReadMap[M ~map[K]V, K comparable, V any], which needs go1.20. Modules
// as published often say less (go 1.13) or nothing. Their go.mod is not
// touched (raising it would change more than the language: the module
// graph's pruning, vendoring checks); instead each rewritten file with
// sites whose language is older than sitesGo gets a //go:build line that
// says sitesGo, without a line added (raiseFile). The go command and the
// compiler then compile that file, and only it, under go1.21 (the
// compiler's floor for a file with a version in its //go:build line):
// go1.13 to go1.21 only added to the language, and a file at go1.22 or
// later (per-iteration loop variables) is never touched, so the program
// means what it meant.

// sitesGo is the language version a file with read or call sites needs.
const sitesGo = "go1.20"

// needsRaise reports whether a file of a module whose go line says
// modGo ("1.13"; "" for none) and whose own //go:build line says fileGo
// ("go1.16"; "" for none) may compile under a language older than
// sitesGo. (Go 1.26's compiler takes at least go1.21 for any file with a
// version in its //go:build line; older toolchains take the file's
// version as it is, so this does too.)
func needsRaise(modGo, fileGo string) bool {
	v := "go1.16" // the go command's assumption for a go.mod without a go line
	if modGo != "" {
		v = "go" + strings.TrimPrefix(modGo, "go")
	}
	if fileGo != "" && version.Compare(fileGo, v) > 0 {
		v = fileGo
	}
	return version.Compare(v, sitesGo) < 0
}

// errNoHeaderLine says why raiseFile cannot raise a file's language.
var errNoHeaderLine = errors.New("no line before its package clause can carry a //go:build line without a line added")

// raiseFile returns src with a //go:build line that requires sitesGo, on
// a line that was already there: the file's //go:build line (its
// expression kept), else a blank line before the package clause, else an
// old-style build constraint line (ignored once a //go:build line
// exists; the file is in this build, so it held), else the package
// clause itself, moved onto the
// next line, else a comment line before the package clause that is no
// directive. The line count never changes.
func raiseFile(filename string, src []byte) ([]byte, error) {
	h, err := scanHeader(filename, src)
	if err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	set := func(i int, text string) []byte {
		var b bytes.Buffer
		for j, l := range lines {
			if j == i {
				b.WriteString(text)
				if bytes.HasSuffix(l, []byte("\n")) {
					b.WriteByte('\n')
				}
				continue
			}
			b.Write(l)
		}
		return b.Bytes()
	}
	want := "//go:build " + sitesGo
	for i := 0; i < h.pkgLine; i++ {
		if c := h.lineComment[i]; constraint.IsGoBuild(c) {
			if _, err := constraint.Parse(c); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", filename, i+1, err)
			}
			expr := strings.TrimSpace(strings.TrimPrefix(c, "//go:build"))
			return set(i, want+" && ("+expr+")"), nil
		}
	}
	for i := h.pkgLine - 1; i >= 0; i-- {
		if h.blank[i] {
			return set(i, want), nil
		}
	}
	for i := 0; i < h.pkgLine; i++ {
		if constraint.IsPlusBuild(h.lineComment[i]) {
			return set(i, want), nil
		}
	}
	if out, ok := movePackageClause(src, lines, h, want); ok {
		return out, nil
	}
	for i := 0; i < h.pkgLine; i++ {
		if c := h.lineComment[i]; c != "" && !isDirective(c) {
			return set(i, want), nil
		}
	}
	return nil, errNoHeaderLine
}

// isDirective reports whether a line comment is a directive (//go:debug,
// //line, //export, ...) rather than prose.
func isDirective(c string) bool {
	text := strings.TrimPrefix(c, "//")
	if strings.HasPrefix(text, "line ") {
		return true
	}
	i := strings.IndexByte(text, ':')
	return i > 0 && !strings.ContainsAny(text[:i], " \t") || strings.HasPrefix(text, "export ") || strings.HasPrefix(text, "extern ")
}

// A header describes the lines of a file up to its package clause.
type header struct {
	pkgLine     int      // the package clause's line, from 0
	pkgFirst    bool     // nothing but blanks precedes the package keyword on its line
	nameApart   bool     // the package name is on a later line than the keyword
	pkgTail     string   // the package clause's line from the keyword on, without its newline
	tailComment bool     // that tail ends in a line comment or opens a block comment
	lineComment []string // per line before pkgLine: the line comment that is all of it, or ""
	blank       []bool   // per line before pkgLine: blank, and outside any comment
}

// scanHeader scans src up to the token after its package clause.
func scanHeader(filename string, src []byte) (header, error) {
	fset := token.NewFileSet()
	tf := fset.AddFile(filename, -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(tf, src, func(pos token.Position, msg string) { errs.Add(pos, msg) }, scanner.ScanComments)
	var h header
	var comments []ast.Comment
	pkgOff := -1
	for pkgOff < 0 {
		pos, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return h, fmt.Errorf("%s: no package clause", filename)
		case token.COMMENT:
			comments = append(comments, ast.Comment{Slash: pos, Text: lit})
		case token.PACKAGE:
			pkgOff = tf.Offset(pos)
		default:
			return h, fmt.Errorf("%s: no package clause", filename)
		}
	}
	namePos, tok, _ := s.Scan()
	if len(errs) > 0 {
		return h, errs.Err()
	}
	if tok != token.IDENT {
		return h, fmt.Errorf("%s: no package name", filename)
	}
	h.pkgLine = tf.Line(tf.Pos(pkgOff)) - 1
	h.nameApart = tf.Line(namePos)-1 != h.pkgLine
	lineStart := bytes.LastIndexByte(src[:pkgOff], '\n') + 1
	h.pkgFirst = len(bytes.TrimSpace(src[lineStart:pkgOff])) == 0
	lineEnd := len(src)
	if i := bytes.IndexByte(src[pkgOff:], '\n'); i >= 0 {
		lineEnd = pkgOff + i
	}
	h.pkgTail = string(src[pkgOff:lineEnd])
	h.tailComment = tailComment(h.pkgTail)
	h.lineComment = make([]string, h.pkgLine)
	h.blank = make([]bool, h.pkgLine)
	inComment := make([]bool, h.pkgLine)
	for _, c := range comments {
		first, last := tf.Line(c.Slash)-1, tf.Line(c.End())-1
		for l := first; l <= last && l < h.pkgLine; l++ {
			inComment[l] = true
		}
		start := tf.Offset(c.Slash)
		ls := bytes.LastIndexByte(src[:start], '\n') + 1
		if strings.HasPrefix(c.Text, "//") && len(bytes.TrimSpace(src[ls:start])) == 0 && first < h.pkgLine {
			h.lineComment[first] = c.Text
		}
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	for l := 0; l < h.pkgLine; l++ {
		h.blank[l] = !inComment[l] && len(bytes.TrimSpace(lines[l])) == 0
	}
	return h, nil
}

// tailComment reports whether the rest of the package clause's line holds
// a line comment or a block comment that it does not close.
func tailComment(tail string) bool {
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(tail))
	bad := false
	var s scanner.Scanner
	s.Init(tf, []byte(tail), func(token.Position, string) { bad = true }, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return bad
		}
		if tok == token.COMMENT && strings.HasPrefix(lit, "//") {
			return true
		}
	}
}

// movePackageClause turns the package clause's line into the //go:build
// line and puts the clause at the start of the next line (which must
// exist): alone there if that line is blank, else followed by "; ".
func movePackageClause(src []byte, lines [][]byte, h header, want string) ([]byte, bool) {
	next := h.pkgLine + 1
	if !h.pkgFirst || h.nameApart || next >= len(lines) || !bytes.HasSuffix(lines[h.pkgLine], []byte("\n")) {
		return nil, false
	}
	rest := lines[next]
	blankNext := len(bytes.TrimSpace(rest)) == 0
	if h.tailComment && !blankNext {
		return nil, false
	}
	var b bytes.Buffer
	for _, l := range lines[:h.pkgLine] {
		b.Write(l)
	}
	b.WriteString(want + "\n")
	tail := strings.TrimRight(h.pkgTail, " \t\r")
	b.WriteString(tail)
	if !blankNext {
		if !strings.HasSuffix(tail, ";") {
			b.WriteString(";")
		}
		b.WriteString(" ")
		b.Write(bytes.TrimLeft(rest, " \t"))
	} else if bytes.HasSuffix(rest, []byte("\n")) {
		b.WriteByte('\n')
	}
	for _, l := range lines[next+1:] {
		b.Write(l)
	}
	return b.Bytes(), true
}
