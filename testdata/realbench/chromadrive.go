//go:build ignore

// Command chromadrive highlights one file with chroma and prints the
// sizes in and out (doc/cases/chroma-reads.md).
//
//	chromadrive [-lexer NAME] [-format html|html-lines|terminal256|noop] [-reps R] FILE
//
// It does what chroma's quick.Highlight does: lexers.Get(NAME) (go, html,
// css, markdown, json...), wrapped in chroma.Coalesce, the style
// "monokai", then the formatter: html is html.New(WithClasses) (the
// formatter splits the tokens into lines, SplitTokensIntoLines),
// html-lines the same with line numbers in a table, terminal256 the
// 256-colour terminal formatter. The file is highlighted R times
// (default 1); the output goes to io.Discard, its size to standard output.
//
// It needs chroma, so it builds in a module of its own:
//
//	mkdir drive && cp chromadrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init chromadrive
//	go get github.com/alecthomas/chroma/v2@v2.27.0 && go build
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func main() {
	lexName := flag.String("lexer", "go", "lexer name or alias")
	format := flag.String("format", "html", "html, html-lines, terminal256 or noop")
	reps := flag.Int("reps", 1, "highlight the file this many times")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: chromadrive [-lexer NAME] [-format F] [-reps R] FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	l := lexers.Get(*lexName)
	if l == nil {
		fmt.Fprintf(os.Stderr, "chromadrive: no lexer %q\n", *lexName)
		os.Exit(2)
	}
	l = chroma.Coalesce(l)
	var f chroma.Formatter
	switch *format {
	case "html":
		f = html.New(html.WithClasses(true))
	case "html-lines":
		f = html.New(html.WithClasses(true), html.WithLineNumbers(true), html.LineNumbersInTable(true))
	case "terminal256", "noop":
		f = formatters.Get(*format)
	default:
		fmt.Fprintf(os.Stderr, "chromadrive: unknown format %q\n", *format)
		os.Exit(2)
	}
	s := styles.Get("monokai")
	var out counter
	for r := 0; r < *reps; r++ {
		it, err := l.Tokenise(nil, string(src))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := f.Format(io.Writer(&out), s, it); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("in %d bytes, out %d bytes\n", len(src), out.n)
}
