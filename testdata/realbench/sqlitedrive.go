//go:build ignore

// Command sqlitedrive runs one workload of size N against an in-memory
// modernc.org/sqlite v1.62.0 database (SQLite transpiled to Go), through
// database/sql with the driver name "sqlite", and checks its result.
//
//	sqlitedrive MODE N
//
// Every mode first creates two tables, a(id INTEGER PRIMARY KEY, k, v)
// and b(id INTEGER PRIMARY KEY, k, w), and inserts N rows into each, one
// prepared INSERT a row in one transaction (a.k = i, b.k = i*7 mod N:
// each a row matches one b row). k has no index. Then, after a mark
// "MODE n=N" (when SUNCAT_BIN names the suncat binary: $SUNCAT_BIN mark
// -pid PID; without it the run is one sub-trace):
//   - join: PRAGMA automatic_index = OFF, then
//     SELECT count(*), sum(a.id*b.id) FROM a JOIN b ON a.k = b.k:
//     SQLite's plan is a nested loop, a full scan of b for every row of
//     a, N*N row visits (quadratic).
//   - auto: the same query with SQLite's default automatic_index = ON:
//     the planner builds a transient index on b.k for the query, then
//     looks each a row up in it (n log n).
//   - sub: a correlated subquery per row,
//     SELECT sum((SELECT count(*) FROM b WHERE b.k < a.k)) FROM a,
//     a full scan of b for every row of a (quadratic).
//   - flat (the control): 100 lookups by primary key,
//     SELECT v FROM a WHERE id = ? for id 1..100, and one query over a
//     fixed 50-row table c (SELECT count(*) FROM c x JOIN c y ON x.k = y.k,
//     automatic_index OFF): the same work at every N.
//
// Then a second mark "close n=N" and db.Close(), which frees the
// database's pages (linear in N): select the query with summary -run.
//
// The driver prints the query plan (EXPLAIN QUERY PLAN) to stderr and
// the result to stdout.
//
// It builds in a module of its own (doc/cases/sqlite-reads.md):
//
//	mkdir sqlitedrive && cp sqlitedrive.go sqlitedrive/main.go && cd sqlitedrive
//	sed -i 1,2d main.go && go mod init example.com/sqlitedrive
//	go get modernc.org/sqlite@v1.62.0 && go build
package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	_ "modernc.org/sqlite"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sqlitedrive:", err)
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

// fill inserts n rows into table t, k of row i given by key(i).
func fill(db *sql.DB, t string, n int, key func(i int) int) {
	tx, err := db.Begin()
	must(err)
	st, err := tx.Prepare("INSERT INTO " + t + "(id, k, v) VALUES (?, ?, ?)")
	must(err)
	for i := 0; i < n; i++ {
		_, err := st.Exec(i+1, key(i), fmt.Sprintf("%s row %d", t, i))
		must(err)
	}
	must(st.Close())
	must(tx.Commit())
}

func plan(db *sql.DB, q string) {
	rows, err := db.Query("EXPLAIN QUERY PLAN " + q)
	must(err)
	defer rows.Close()
	for rows.Next() {
		var id, parent, notused int
		var detail string
		must(rows.Scan(&id, &parent, &notused, &detail))
		fmt.Fprintf(os.Stderr, "plan: %s\n", detail)
	}
	must(rows.Err())
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sqlitedrive join|auto|sub|flat N")
		os.Exit(2)
	}
	mode := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	must(err)
	db, err := sql.Open("sqlite", ":memory:")
	must(err)
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	for _, t := range []string{"a", "b", "c"} {
		_, err := db.Exec("CREATE TABLE " + t + "(id INTEGER PRIMARY KEY, k INTEGER, v TEXT)")
		must(err)
	}
	fill(db, "a", n, func(i int) int { return i })
	fill(db, "b", n, func(i int) int { return i * 7 % n })
	fill(db, "c", 50, func(i int) int { return i % 10 })

	var q string
	switch mode {
	case "join", "flat":
		_, err := db.Exec("PRAGMA automatic_index = OFF")
		must(err)
		q = "SELECT count(*), sum(a.id*b.id) FROM a JOIN b ON a.k = b.k"
	case "auto":
		q = "SELECT count(*), sum(a.id*b.id) FROM a JOIN b ON a.k = b.k"
	case "sub":
		q = "SELECT count(*), sum((SELECT count(*) FROM b WHERE b.k < a.k)) FROM a"
	default:
		must(fmt.Errorf("unknown mode %q", mode))
	}
	if mode == "flat" {
		q = "SELECT count(*), sum(x.id*y.id) FROM c x JOIN c y ON x.k = y.k"
	}
	plan(db, q)
	mark(fmt.Sprintf("%s n=%d", mode, n))
	if mode == "flat" {
		st, err := db.Prepare("SELECT v FROM a WHERE id = ?")
		must(err)
		var total int
		for id := 1; id <= 100; id++ {
			var v string
			must(st.QueryRow(id).Scan(&v))
			total += len(v)
		}
		must(st.Close())
		fmt.Printf("lookups: %d bytes\n", total)
	}
	var count, sum int64
	must(db.QueryRow(q).Scan(&count, &sum))
	fmt.Printf("%s n=%d: count %d sum %d\n", mode, n, count, sum)
	mark(fmt.Sprintf("close n=%d", n))
	must(db.Close())
}
