//go:build ignore

// Command validatordrive validates one input of size N with
// github.com/go-playground/validator/v10 (doc/cases/validator-reads.md):
//
//	validatordrive dive|diveerr|unique|keys|flat N
//
// dive: a struct with a slice of N structs, `dive` and per-element rules
// (required, min, email). diveerr: the same with every element invalid
// (a short name, no @), and the error's message built. unique: a slice of
// N distinct strings, `unique`. keys: a map of N entries,
// `dive,keys,...,endkeys,...`. flat (the control): an unrelated slice of
// N strings is built, then a fixed struct is validated 100 times.
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/go-playground/validator/v10"
)

type Item struct {
	Name  string `validate:"required,min=3"`
	Email string `validate:"required,email"`
}

type Dive struct {
	Items []Item `validate:"required,dive"`
}

type Unique struct {
	Tags []string `validate:"unique"`
}

type Keys struct {
	M map[string]int `validate:"dive,keys,required,min=3,endkeys,gte=0"`
}

type Flat struct {
	Name  string `validate:"required,min=3"`
	Email string `validate:"required,email"`
	Age   int    `validate:"gte=0,lte=130"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: validatordrive dive|diveerr|unique|keys|flat N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		panic(err)
	}
	v := validator.New()
	var errs int
	count := func(err error) {
		if err != nil {
			if ve, ok := err.(validator.ValidationErrors); ok {
				errs += len(ve)
			} else {
				panic(err)
			}
		}
	}
	switch os.Args[1] {
	case "dive":
		d := Dive{Items: make([]Item, n)}
		for i := range d.Items {
			d.Items[i] = Item{Name: "name" + strconv.Itoa(i), Email: "user" + strconv.Itoa(i) + "@example.com"}
		}
		count(v.Struct(d))
	case "diveerr":
		d := Dive{Items: make([]Item, n)}
		for i := range d.Items {
			d.Items[i] = Item{Name: "x", Email: "user" + strconv.Itoa(i)}
		}
		err := v.Struct(d)
		count(err)
		fmt.Println("message bytes", len(err.Error()))
	case "unique":
		u := Unique{Tags: make([]string, n)}
		for i := range u.Tags {
			u.Tags[i] = "tag" + strconv.Itoa(i)
		}
		count(v.Struct(u))
	case "keys":
		k := Keys{M: make(map[string]int, n)}
		for i := 0; i < n; i++ {
			k.M["key"+strconv.Itoa(i)] = i
		}
		count(v.Struct(k))
	case "flat":
		other := make([]string, n)
		total := 0
		for i := range other {
			other[i] = strconv.Itoa(i)
			total += len(other[i])
		}
		f := Flat{Name: "alice", Email: "alice@example.com", Age: 30}
		for r := 0; r < 100; r++ {
			count(v.Struct(f))
		}
		fmt.Println("unrelated bytes", total)
	default:
		fmt.Fprintln(os.Stderr, "unknown case", os.Args[1])
		os.Exit(2)
	}
	fmt.Println(os.Args[1], n, "errors", errs)
}
