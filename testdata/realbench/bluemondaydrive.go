//go:build ignore

// Command bluemondaydrive sanitizes one HTML file with bluemonday and
// prints the sizes in and out (doc/cases/bluemonday-reads.md).
//
//	bluemondaydrive [-policy ugc|rich] [-reps R] [-sleep D] FILE
//
// -policy ugc is bluemonday.UGCPolicy(); rich is UGCPolicy() plus
// AllowDataAttributes, styles on every element (bluemonday's own CSS
// handlers for 12 properties), and 40 attributes allowed on every element
// by a regexp each. The file is sanitized R times (default 1), with a
// pause of D between two (default 0), so that `suncat summary -split
// idle=...` sees one sub-trace a repetition.
//
// It needs bluemonday, so it builds in a module of its own:
//
//	mkdir drive && cp bluemondaydrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init bluemondaydrive
//	go get github.com/microcosm-cc/bluemonday@v1.0.27 && go build
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/microcosm-cc/bluemonday"
)

func policy(name string) *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	switch name {
	case "ugc":
	case "rich":
		p.AllowDataAttributes()
		p.AllowStyles("color", "background-color", "text-align", "font-weight",
			"font-size", "margin", "padding", "border-style", "display",
			"width", "height", "text-decoration").Globally()
		for i := 0; i < 40; i++ {
			p.AllowAttrs(fmt.Sprintf("x-a%d", i)).
				Matching(regexp.MustCompile(fmt.Sprintf(`^v%d-[a-z0-9]+$`, i))).Globally()
		}
	default:
		fmt.Fprintf(os.Stderr, "bluemondaydrive: unknown policy %q\n", name)
		os.Exit(2)
	}
	return p
}

func main() {
	pol := flag.String("policy", "ugc", "ugc or rich")
	reps := flag.Int("reps", 1, "sanitize the file this many times")
	sleep := flag.Duration("sleep", 0, "pause between two repetitions")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: bluemondaydrive [-policy ugc|rich] [-reps R] [-sleep D] FILE")
		os.Exit(2)
	}
	in, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	p := policy(*pol)
	var out []byte
	for r := 0; r < *reps; r++ {
		if r > 0 && *sleep > 0 {
			time.Sleep(*sleep)
		}
		out = p.SanitizeBytes(in)
	}
	fmt.Printf("in %d bytes, out %d bytes\n", len(in), len(out))
}
