//go:build ignore

// Command goldmarkdrive converts one Markdown file to HTML with goldmark
// and prints the sizes in and out (doc/cases/goldmark-reads.md).
//
//	goldmarkdrive [-gfm] FILE
//
// Without -gfm it is goldmark.New(): CommonMark only. With -gfm it is
// goldmark.New(goldmark.WithExtensions(extension.GFM)): tables,
// strikethrough, linkify and task lists as well. The HTML goes to
// io.Discard; its size goes to standard output.
//
// It needs goldmark, so it builds in a module of its own:
//
//	mkdir drive && cp goldmarkdrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init goldmarkdrive
//	go get github.com/yuin/goldmark@v1.7.13 && go build
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func main() {
	gfm := flag.Bool("gfm", false, "with the GFM extension (tables, strikethrough, linkify, task lists)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: goldmarkdrive [-gfm] FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	md := goldmark.New()
	if *gfm {
		md = goldmark.New(goldmark.WithExtensions(extension.GFM))
	}
	var out counter
	if err := md.Convert(src, io.MultiWriter(&out, io.Discard)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("in %d bytes, out %d bytes\n", len(src), out.n)
}
