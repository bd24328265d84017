//go:build ignore

// Command xmlquerydrive parses one XML file with xmlquery and runs one XPath
// expression over it (doc/cases/xmlquery-reads.md).
//
//	xmlquerydrive FILE EXPR
//
// A node-set expression is run with xmlquery.QuerySelectorAll (what
// xmlquery.QueryAll does after compiling) and the count of nodes printed;
// any other (count(...), a comparison) is evaluated and its value printed.
//
// It needs xmlquery, so it builds in a module of its own:
//
//	mkdir drive && cp xmlquerydrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init xmlquerydrive
//	go get github.com/antchfx/xmlquery@v1.5.2 && go build
package main

import (
	"fmt"
	"os"

	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: xmlquerydrive FILE EXPR")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	doc, err := xmlquery.Parse(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	expr, err := xpath.Compile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch v := expr.Evaluate(xmlquery.CreateXPathNavigator(doc)).(type) {
	case *xpath.NodeIterator:
		fmt.Println(len(xmlquery.QuerySelectorAll(doc, expr)))
	default:
		fmt.Println(v)
	}
}
