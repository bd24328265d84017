//go:build ignore

// Command kongdrive builds a github.com/alecthomas/kong grammar whose
// size grows with N and parses one command line against it, printing
// what was parsed (doc/cases/kong-reads.md).
//
//	kongdrive MODE N
//
// The grammar is a struct type made at run time with reflect.StructOf.
// MODE is one of
//
//	flags  N string flags --f0..--fN-1, all given once: --fI=vI
//	enum   one []string flag with enum:"a,b,c,d", given N times: --s=b
//	slice  one []string flag (no enum), given N times: --s=b
//	help   N string flags and N subcommands c0..cN-1, command line --help
//	vars   N string flags whose help is ${hI}, N kong.Vars hI; --f0=v0
//	fixed  50 flags, 10 of them given, whatever N is (the flat control)
//
// It needs kong, so it builds in a module of its own:
//
//	mkdir drive && cp kongdrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init kongdrive
//	go get github.com/alecthomas/kong@v1.17.0 && go build
package main

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strconv"

	"github.com/alecthomas/kong"
)

type exited struct{}

func flagFields(n int, help string) []reflect.StructField {
	fs := make([]reflect.StructField, 0, n)
	for i := 0; i < n; i++ {
		fs = append(fs, reflect.StructField{
			Name: "F" + strconv.Itoa(i),
			Type: reflect.TypeOf(""),
			Tag:  reflect.StructTag(fmt.Sprintf(`name:"f%d" help:"`+help+`"`, i, i)),
		})
	}
	return fs
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: kongdrive flags|enum|slice|help|vars|fixed N")
		os.Exit(2)
	}
	mode := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	var fields []reflect.StructField
	var args []string
	vars := kong.Vars{}
	switch mode {
	case "flags", "fixed":
		m := n
		if mode == "fixed" {
			m = 50
		}
		fields = flagFields(m, "Flag number %d.")
		given := m
		if mode == "fixed" {
			given = 10
		}
		for i := 0; i < given; i++ {
			args = append(args, fmt.Sprintf("--f%d=v%d", i, i))
		}
	case "enum", "slice":
		tag := `name:"s" sep:"none" help:"A repeated flag."`
		if mode == "enum" {
			tag = `name:"s" sep:"none" enum:"a,b,c,d" default:"a" help:"A repeated flag."`
		}
		fields = []reflect.StructField{{Name: "S", Type: reflect.TypeOf([]string{}), Tag: reflect.StructTag(tag)}}
		for i := 0; i < n; i++ {
			args = append(args, "--s=b")
		}
	case "help":
		fields = flagFields(n, "Flag number %d.")
		for i := 0; i < n; i++ {
			fields = append(fields, reflect.StructField{
				Name: "C" + strconv.Itoa(i),
				Type: reflect.TypeOf(struct{}{}),
				Tag:  reflect.StructTag(fmt.Sprintf(`cmd:"" name:"c%d" help:"Command number %d."`, i, i)),
			})
		}
		args = []string{"--help"}
	case "vars":
		fields = flagFields(n, "${h%d}")
		for i := 0; i < n; i++ {
			vars["h"+strconv.Itoa(i)] = "Flag number " + strconv.Itoa(i) + "."
		}
		args = []string{"--f0=v0"}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", mode)
		os.Exit(2)
	}
	grammar := reflect.New(reflect.StructOf(fields)).Interface()
	var out bytes.Buffer
	parser, err := kong.New(grammar,
		kong.Name("kongdrive"),
		kong.Writers(&out, &out),
		kong.Exit(func(int) { panic(exited{}) }),
		vars,
	)
	if err != nil {
		panic(err)
	}
	cmd := func() (cmd string) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(exited); !ok {
					panic(r)
				}
				cmd = "(exited)"
			}
		}()
		ctx, err := parser.Parse(args)
		if err != nil {
			panic(err)
		}
		return ctx.Command()
	}()
	v := reflect.ValueOf(grammar).Elem()
	set := 0
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			if f.String() != "" {
				set++
			}
		case reflect.Slice:
			set += f.Len()
		}
	}
	fmt.Printf("%s %d: %d args, command %q, %d values set, %d bytes of output\n", mode, n, len(args), cmd, set, out.Len())
}
