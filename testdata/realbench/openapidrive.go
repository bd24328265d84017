//go:build ignore

// Command openapidrive loads an OpenAPI 3 spec with kin-openapi, validates
// it, and validates R requests against it (doc/cases/kinopenapi-reads.md).
//
//	openapidrive [-requests R] [-target spread|first] SPEC
//
// The spec is loaded with openapi3.NewLoader (external $refs not allowed:
// no network) and checked with doc.Validate. With -requests R, a
// gorillamux router is made from it and R requests GET PATH?limit=5 are
// routed (FindRoute) and validated (openapi3filter.ValidateRequest), PATH
// a path of the spec with each {variable} replaced by x. -target spread
// takes the paths in the router's matching order, request k the path k
// modulo their number; -target first sends every request to the first
// path in that order.
//
// It needs kin-openapi, so it builds in a module of its own:
//
//	mkdir drive && cp openapidrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init openapidrive
//	go get github.com/getkin/kin-openapi@v0.153.0 && go build
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

func main() {
	requests := flag.Int("requests", 0, "route and validate this many requests")
	target := flag.String("target", "spread", "spread or first")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: openapidrive [-requests R] [-target spread|first] SPEC")
		os.Exit(2)
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	if err := doc.Validate(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
	fmt.Printf("valid: %d paths, %d schemas\n", doc.Paths.Len(), len(doc.Components.Schemas))
	if *requests == 0 {
		return
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "router:", err)
		os.Exit(1)
	}
	vars := regexp.MustCompile(`\{[^}]*\}`)
	var urls []string
	for _, p := range doc.Paths.InMatchingOrder() {
		urls = append(urls, vars.ReplaceAllString(p, "x")+"?limit=5")
	}
	bad := 0
	for k := 0; k < *requests; k++ {
		u := urls[0]
		if *target == "spread" {
			u = urls[k%len(urls)]
		}
		req := httptest.NewRequest("GET", u, nil)
		route, params, err := router.FindRoute(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, "route:", u, err)
			os.Exit(1)
		}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			bad++
		}
	}
	fmt.Printf("%d requests, %d invalid\n", *requests, bad)
}
