//go:build ignore

// Command graphqldrive serves one GraphQL query of size N in-process with
// graphql-go/graphql (graphql.Do: parse, validate with all the specified
// rules, execute) and prints the result's size and resolver counts.
//
//	graphqldrive KIND N        one query of KIND at size N
//	graphqldrive rep KIND N,N  one query of KIND at each size, in one process,
//	                           each after a mark "KIND n=N" (when SUNCAT_BIN
//	                           names the suncat binary: $SUNCAT_BIN mark -pid PID)
//
// KIND:
//
//	dup    { user(id: 1) { name name ... } }, the field N times, one response name
//	alias  { user(id: 1) { a00000: name a00001: name ... } }, N response names
//	frag   { user(id: 1) { ...F00000 ...F00001 ... } } and N fragments F on User { name }
//	list   { users(n: N) { name friend { name } } }: friend resolved once per user (N+1)
//	deep   { user(id: 1) { friend { friend { ... { name } } } } }, friend N deep
//	flat   { user(id: 7) { name friend { name } } } over a store of 100*N users
//	       (the flat control: the store grows, the query does not)
//
// It builds in a module of its own (doc/cases/graphql-reads.md):
//
//	mkdir graphqldrive && cp graphqldrive.go graphqldrive/main.go && cd graphqldrive
//	sed -i 1,2d main.go && go mod init example.com/graphqldrive
//	go get github.com/graphql-go/graphql@v0.8.1 && go build
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/graphql-go/graphql"
)

type user struct {
	ID   int
	Name string
}

var (
	store       map[int]*user
	userCalls   int
	friendCalls int
	usersCalls  int
	storeUsers  int
)

func fill(n int) {
	store = make(map[int]*user, n)
	for i := 0; i < n; i++ {
		store[i] = &user{ID: i, Name: "user" + strconv.Itoa(i)}
	}
	storeUsers = n
}

func schema() graphql.Schema {
	userType := graphql.NewObject(graphql.ObjectConfig{
		Name: "User",
		Fields: graphql.Fields{
			"id":   &graphql.Field{Type: graphql.Int},
			"name": &graphql.Field{Type: graphql.String},
		},
	})
	userType.AddFieldConfig("friend", &graphql.Field{
		Type: userType,
		Resolve: func(p graphql.ResolveParams) (interface{}, error) {
			friendCalls++
			u := p.Source.(*user)
			return store[(u.ID+1)%storeUsers], nil // one "query" per user: the N+1
		},
	})
	query := graphql.NewObject(graphql.ObjectConfig{
		Name: "Query",
		Fields: graphql.Fields{
			"user": &graphql.Field{
				Type: userType,
				Args: graphql.FieldConfigArgument{"id": &graphql.ArgumentConfig{Type: graphql.Int}},
				Resolve: func(p graphql.ResolveParams) (interface{}, error) {
					userCalls++
					id, _ := p.Args["id"].(int)
					return store[id], nil
				},
			},
			"users": &graphql.Field{
				Type: graphql.NewList(userType),
				Args: graphql.FieldConfigArgument{"n": &graphql.ArgumentConfig{Type: graphql.Int}},
				Resolve: func(p graphql.ResolveParams) (interface{}, error) {
					usersCalls++
					n, _ := p.Args["n"].(int)
					out := make([]*user, 0, n)
					for i := 0; i < n && i < storeUsers; i++ {
						out = append(out, store[i])
					}
					return out, nil
				},
			},
		},
	})
	s, err := graphql.NewSchema(graphql.SchemaConfig{Query: query})
	if err != nil {
		panic(err)
	}
	return s
}

func build(kind string, n int) string {
	var b strings.Builder
	switch kind {
	case "dup", "flat-dup":
		b.WriteString("{ user(id: 1) {")
		for i := 0; i < n; i++ {
			b.WriteString(" name")
		}
		b.WriteString(" } }")
	case "alias":
		b.WriteString("{ user(id: 1) {")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " a%05d: name", i)
		}
		b.WriteString(" } }")
	case "frag":
		b.WriteString("{ user(id: 1) {")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " ...F%05d", i)
		}
		b.WriteString(" } }\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "fragment F%05d on User { name }\n", i)
		}
	case "list":
		fmt.Fprintf(&b, "{ users(n: %d) { name friend { name } } }", n)
	case "deep":
		b.WriteString("{ user(id: 1) {")
		for i := 0; i < n; i++ {
			b.WriteString(" friend {")
		}
		b.WriteString(" name")
		for i := 0; i < n; i++ {
			b.WriteString(" }")
		}
		b.WriteString(" } }")
	case "flat":
		b.WriteString("{ user(id: 7) { name friend { name } } }")
	default:
		fmt.Fprintln(os.Stderr, "unknown kind", kind)
		os.Exit(2)
	}
	return b.String()
}

func mark(label string) {
	bin := os.Getenv("SUNCAT_BIN")
	if bin == "" {
		return
	}
	out, err := exec.Command(bin, "mark", "-pid", strconv.Itoa(os.Getpid()), label).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mark: %v: %s\n", err, out)
		os.Exit(1)
	}
}

func run(s graphql.Schema, kind string, n int) {
	userCalls, friendCalls, usersCalls = 0, 0, 0
	if kind == "flat" {
		fill(100 * n)
	}
	q := build(kind, n)
	r := graphql.Do(graphql.Params{Schema: s, RequestString: q})
	out, _ := json.Marshal(r.Data)
	fmt.Printf("%s n=%d: query %d bytes, %d errors, result %d bytes, resolver calls user=%d users=%d friend=%d\n",
		kind, n, len(q), len(r.Errors), len(out), userCalls, usersCalls, friendCalls)
	for i, e := range r.Errors {
		if i == 3 {
			break
		}
		fmt.Println(" ", e.Message)
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: graphqldrive KIND N | graphqldrive rep KIND N,N,...")
		os.Exit(2)
	}
	fill(10000)
	s := schema()
	if os.Args[1] == "rep" {
		if len(os.Args) != 4 {
			fmt.Fprintln(os.Stderr, "usage: graphqldrive rep KIND N,N,...")
			os.Exit(2)
		}
		for _, f := range strings.Split(os.Args[3], ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				panic(err)
			}
			mark(fmt.Sprintf("%s n=%d", os.Args[2], n))
			run(s, os.Args[2], n)
		}
		return
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	run(s, os.Args[1], n)
}
