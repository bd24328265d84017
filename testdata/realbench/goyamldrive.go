//go:build ignore

// Command goyamldrive decodes one YAML file with github.com/goccy/go-yaml
// and encodes it back, printing the sizes in and out
// (doc/cases/goyaml-reads.md).
//
//	goyamldrive [-ordered] [-comments] FILE
//
// The file is decoded with yaml.UnmarshalWithOptions into an `any`
// (-ordered: a yaml.MapSlice, keeping the keys' order, through
// yaml.UseOrderedMap), then encoded again with yaml.Marshal (to
// io.Discard). -comments decodes with yaml.CommentToMap and encodes
// with yaml.WithComment, carrying the comments across.
//
// It needs go-yaml, so it builds in a module of its own:
//
//	mkdir drive && cp goyamldrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init goyamldrive
//	go get github.com/goccy/go-yaml@v1.19.2 && go build
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/goccy/go-yaml"
)

func main() {
	ordered := flag.Bool("ordered", false, "decode mappings into yaml.MapSlice (yaml.UseOrderedMap)")
	comments := flag.Bool("comments", false, "keep comments (yaml.CommentToMap, yaml.WithComment)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: goyamldrive [-ordered] [-comments] FILE")
		os.Exit(2)
	}
	src, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var dopts []yaml.DecodeOption
	var eopts []yaml.EncodeOption
	if *ordered {
		dopts = append(dopts, yaml.UseOrderedMap())
	}
	cm := yaml.CommentMap{}
	if *comments {
		dopts = append(dopts, yaml.CommentToMap(cm))
		eopts = append(eopts, yaml.WithComment(cm))
	}
	var v any
	if err := yaml.UnmarshalWithOptions(src, &v, dopts...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := yaml.MarshalWithOptions(v, eopts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("in %d bytes, out %d bytes, %d comments\n", len(src), len(out), len(cm))
}
