//go:build ignore

// Command buntdbdrive runs one workload of size N against an in-memory
// github.com/tidwall/buntdb v1.3.0 database and checks its result.
//
//	buntdbdrive MODE N
//
// The modes:
//   - rooms: N/50 rooms, each with an index of its own ("room:R:*",
//     IndexString) made on the empty database, then N messages
//     room:R:msg:I, round robin over the rooms, 1000 a transaction, then
//     one Ascend over each room's index (N items in all). Every Set
//     matches the key against every index (insertIntoDatabase), so the
//     inserts cost N * N/50 pattern matches: quadratic.
//   - index: N users user:I with a JSON value, 1000 a transaction, then
//     CreateIndex("age", "user:*", IndexJSON("age")) over them and one
//     Ascend of the index (n log n: a b-tree insert per item).
//   - get (the flat control): N keys k:I (8 digits), then, after a mark "get n=N"
//     (when SUNCAT_BIN names the suncat binary: $SUNCAT_BIN mark -pid PID),
//     1000 Gets of k:00000000 .. k:00000999 and 100 AscendRange of 10 keys each: the
//     same 2000 items read at every N.
//
// It builds in a module of its own (doc/cases/buntdb-reads.md):
//
//	mkdir buntdbdrive && cp buntdbdrive.go buntdbdrive/main.go && cd buntdbdrive
//	sed -i 1,2d main.go && go mod init example.com/buntdbdrive
//	go get github.com/tidwall/buntdb@v1.3.0 && go build
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/tidwall/buntdb"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "buntdbdrive:", err)
		os.Exit(1)
	}
}

// mark writes a sub-trace boundary through suncat's control socket.
func mark(label string) {
	bin := os.Getenv("SUNCAT_BIN")
	if bin == "" {
		return
	}
	out, err := exec.Command(bin, "mark", "-pid", strconv.Itoa(os.Getpid()), label).CombinedOutput()
	if err != nil {
		must(fmt.Errorf("mark: %v: %s", err, out))
	}
}

// batches calls set(i) for i in [0, n), 1000 a transaction.
func batches(db *buntdb.DB, n int, set func(tx *buntdb.Tx, i int) error) {
	for i := 0; i < n; i += 1000 {
		must(db.Update(func(tx *buntdb.Tx) error {
			for j := i; j < n && j < i+1000; j++ {
				if err := set(tx, j); err != nil {
					return err
				}
			}
			return nil
		}))
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: buntdbdrive rooms|index|get N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	must(err)
	db, err := buntdb.Open(":memory:")
	must(err)
	defer db.Close()
	switch os.Args[1] {
	case "rooms":
		rooms := n / 50
		must(db.Update(func(tx *buntdb.Tx) error {
			for r := 0; r < rooms; r++ {
				if err := tx.CreateIndex(fmt.Sprintf("room:%d", r), fmt.Sprintf("room:%d:*", r), buntdb.IndexString); err != nil {
					return err
				}
			}
			return nil
		}))
		batches(db, n, func(tx *buntdb.Tx, i int) error {
			_, _, err := tx.Set(fmt.Sprintf("room:%d:msg:%d", i%rooms, i), fmt.Sprintf("message %d", i), nil)
			return err
		})
		got := 0
		must(db.View(func(tx *buntdb.Tx) error {
			for r := 0; r < rooms; r++ {
				if err := tx.Ascend(fmt.Sprintf("room:%d", r), func(k, v string) bool { got++; return true }); err != nil {
					return err
				}
			}
			return nil
		}))
		if got != n {
			must(fmt.Errorf("rooms: %d messages in the indexes, want %d", got, n))
		}
		fmt.Printf("rooms n=%d: %d rooms, %d messages\n", n, rooms, got)
	case "index":
		batches(db, n, func(tx *buntdb.Tx, i int) error {
			_, _, err := tx.Set(fmt.Sprintf("user:%d", i), fmt.Sprintf(`{"name":"u%d","age":%d}`, i, i*7919%100), nil)
			return err
		})
		must(db.CreateIndex("age", "user:*", buntdb.IndexJSON("age")))
		got, last := 0, ""
		must(db.View(func(tx *buntdb.Tx) error {
			return tx.Ascend("age", func(k, v string) bool { got++; last = v; return true })
		}))
		if got != n {
			must(fmt.Errorf("index: %d users in the index, want %d", got, n))
		}
		fmt.Printf("index n=%d: %d users, last %s\n", n, got, last)
	case "get":
		batches(db, n, func(tx *buntdb.Tx, i int) error {
			_, _, err := tx.Set(fmt.Sprintf("k:%08d", i), fmt.Sprintf("v%d", i), nil)
			return err
		})
		mark(fmt.Sprintf("get n=%d", n))
		found, ranged := 0, 0
		must(db.View(func(tx *buntdb.Tx) error {
			for i := 0; i < 1000; i++ {
				if _, err := tx.Get(fmt.Sprintf("k:%08d", i)); err == nil {
					found++
				}
			}
			for i := 0; i < 100; i++ {
				lo, hi := fmt.Sprintf("k:%08d", 100+i), fmt.Sprintf("k:%08d", 110+i)
				if err := tx.AscendRange("", lo, hi, func(k, v string) bool { ranged++; return true }); err != nil {
					return err
				}
			}
			return nil
		}))
		fmt.Printf("get n=%d: %d found, %d in ranges\n", n, found, ranged)
	default:
		must(fmt.Errorf("unknown mode %q", os.Args[1]))
	}
}
