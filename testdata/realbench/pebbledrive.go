//go:build ignore

// Command pebbledrive runs one workload of size N against a
// github.com/cockroachdb/pebble v1.1.5 database on an in-memory file
// system (vfs.NewMem, a 64 MB memtable, no WAL) and checks its result.
//
//	pebbledrive MODE N
//
// The modes (keys k%08d):
//   - mem: a queue. N steps, each Set(k_i), DeleteRange(k_{i-1}, k_i)
//     (consume the previous item) and Get(k_i), each on the DB. A range
//     deletion invalidates the memtable's fragmented-tombstone cache
//     (memTable.tombstones, mem_table.go:247), and the next read
//     fragments all the memtable's tombstones again (keySpanFrags.get,
//     mem_table.go:364): N Gets over i tombstones each, quadratic.
//   - mem0: the same N Sets and DeleteRanges, then the N Gets: the cache
//     is built once, so linear.
//   - batch: the same N Sets and DeleteRanges in one indexed batch
//     (db.NewIndexedBatch), then N batch Gets. Batch.Get asks for the
//     batch's tombstones at InternalKeySeqNumMax (get_iter.go:128), which
//     never matches the cache (batch.go:1220: only at b.nextSeqNum()), so
//     every Get fragments all N tombstones again, though no tombstone was
//     added since: quadratic.
//   - flat (the control): mem and batch at 300 steps, whatever N.
//
// It builds in a module of its own (doc/cases/pebble-reads.md):
//
//	mkdir pebbledrive && cp pebbledrive.go pebbledrive/main.go && cd pebbledrive
//	sed -i 1,2d main.go && go mod init example.com/pebbledrive
//	go get github.com/cockroachdb/pebble@v1.1.5 && go build
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

func key(i int) []byte { return []byte(fmt.Sprintf("k%08d", i)) }

func check(err error) {
	if err != nil {
		panic(err)
	}
}

// get reports whether k is in r (a DB or an indexed batch).
func get(r pebble.Reader, k []byte) bool {
	v, c, err := r.Get(k)
	if err == pebble.ErrNotFound {
		return false
	}
	check(err)
	if len(v) == 0 {
		panic("empty value")
	}
	check(c.Close())
	return true
}

// queue does n steps of Set, DeleteRange of the previous key and, if
// interleaved, Get; then, if not, the n Gets. It returns the keys found.
func queue(db *pebble.DB, n int, interleaved bool) int {
	found := 0
	for i := 0; i < n; i++ {
		check(db.Set(key(i), []byte("value"), pebble.NoSync))
		if i > 0 {
			check(db.DeleteRange(key(i-1), key(i), pebble.NoSync))
		}
		if interleaved && get(db, key(i)) {
			found++
		}
	}
	if !interleaved {
		for i := 0; i < n; i++ {
			if get(db, key(i)) {
				found++
			}
		}
	}
	return found
}

// batch does the n Sets and DeleteRanges in one indexed batch, then n
// Gets of the batch, then commits it.
func batch(db *pebble.DB, n int) int {
	b := db.NewIndexedBatch()
	for i := 0; i < n; i++ {
		check(b.Set(key(i), []byte("value"), nil))
		if i > 0 {
			check(b.DeleteRange(key(i-1), key(i), nil))
		}
	}
	found := 0
	for i := 0; i < n; i++ {
		if get(b, key(i)) {
			found++
		}
	}
	check(b.Commit(pebble.NoSync))
	return found
}

func open() *pebble.DB {
	db, err := pebble.Open("db", &pebble.Options{
		FS:           vfs.NewMem(),
		MemTableSize: 64 << 20,
		DisableWAL:   true,
	})
	check(err)
	return db
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pebbledrive mem|mem0|batch|flat N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	check(err)
	db := open()
	var found, want int
	switch os.Args[1] {
	case "mem":
		found, want = queue(db, n, true), n
	case "mem0":
		found, want = queue(db, n, false), 1
	case "batch":
		found, want = batch(db, n), 1
	case "flat":
		found, want = queue(db, 300, true)+batch(db, 300), 300+1
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
	check(db.Close())
	if found != want {
		panic(fmt.Sprintf("%s %d: found %d keys, want %d", os.Args[1], n, found, want))
	}
	fmt.Printf("%s %d: found %d\n", os.Args[1], n, found)
}
