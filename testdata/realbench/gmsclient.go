//go:build ignore

// Command gmsclient drives go-mysql-server's example server: for each size
// N it joins two N-row tables on a column without an index, once with an
// OR in the condition ("loop": the engine plans a nested-loop InnerJoin)
// and once on equality alone ("hash": a HashJoin), then on their primary
// keys ("pk": a MergeJoin), and reads a fixed 10-row table ("flat"), each
// action -reps times, after a mark "ACTION n=N" sent with suncat mark
// (-persize: one mark "n=N" before the size's actions). -explain prints
// each action's plan instead. It needs the MySQL driver, so it builds in
// a module of its own (doc/cases/go-mysql-server-join-reads.md):
//
//	mkdir gmsclient && cp gmsclient.go gmsclient/main.go && cd gmsclient
//	sed -i 1,2d main.go && go mod init gmsclient
//	go get github.com/go-sql-driver/mysql@v1.10.1 && go build
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

var (
	dsn     = flag.String("dsn", "root@tcp(127.0.0.1:3306)/mydb", "server")
	sizes   = flag.String("sizes", "100,200,400,800", "table sizes")
	reps    = flag.Int("reps", 3, "repetitions of each action")
	suncat  = flag.String("suncat", "", "suncat binary; marks each action when set")
	pid     = flag.Int("pid", 0, "the server's pid, for suncat mark -pid")
	actions = flag.String("actions", "loop,hash,pk,flat", "actions to run")
	explain = flag.Bool("explain", false, "print each action's plan")
	perSize = flag.Bool("persize", false, "one mark \"n=N\" per size, not one per action")
	extra   = flag.String("q", "", "explain this query (a%[1]d, b%[1]d at the first size) and exit")
)

var queries = map[string]string{
	"loop": "SELECT COUNT(*) FROM a%[1]d JOIN b%[1]d ON a%[1]d.v = b%[1]d.v OR a%[1]d.v = -b%[1]d.v",
	"hash": "SELECT COUNT(*) FROM a%[1]d JOIN b%[1]d ON a%[1]d.v = b%[1]d.v",
	"pk":   "SELECT COUNT(*) FROM a%[1]d JOIN b%[1]d ON a%[1]d.id = b%[1]d.id",
	"flat": "SELECT COUNT(*) FROM t10 WHERE v > 0",
}

func main() {
	flag.Parse()
	db, err := sql.Open("mysql", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			log.Fatal(err)
		}
		ns = append(ns, n)
	}
	must(create(db, "t10", 10))
	for _, n := range ns {
		must(create(db, fmt.Sprintf("a%d", n), n))
		must(create(db, fmt.Sprintf("b%d", n), n))
	}
	if *extra != "" {
		must(plan(db, fmt.Sprintf(*extra, ns[0])))
		return
	}
	for _, n := range ns {
		if *perSize {
			must(mark(fmt.Sprintf("n=%d", n)))
		}
		for _, a := range strings.Split(*actions, ",") {
			must(action(db, a, n))
		}
	}
}

// create makes table name with n rows (id, v): id is the primary key, v
// the same number in reverse order, with no index.
func create(db *sql.DB, name string, n int) error {
	if _, err := db.Exec(fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, v INT)", name)); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s VALUES ", name)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d,%d)", i, n-i)
	}
	_, err := db.Exec(b.String())
	return err
}

func action(db *sql.DB, a string, n int) error {
	q := queries[a]
	if strings.Contains(q, "%") {
		q = fmt.Sprintf(q, n)
	}
	if *explain {
		return plan(db, q)
	}
	if !*perSize {
		if err := mark(fmt.Sprintf("%s n=%d", a, n)); err != nil {
			return err
		}
	}
	start := time.Now()
	for r := 0; r < *reps; r++ {
		var c int
		if err := db.QueryRow(q).Scan(&c); err != nil {
			return err
		}
		if r == 0 {
			fmt.Fprintf(os.Stderr, "%s n=%d: count %d\n", a, n, c)
		}
	}
	fmt.Printf("%s n=%d: %d reps in %v\n", a, n, *reps, time.Since(start).Round(time.Microsecond))
	return nil
}

// mark runs suncat mark -pid PID LABEL, when -suncat is set.
func mark(label string) error {
	if *suncat == "" {
		return nil
	}
	out, err := exec.Command(*suncat, "mark", "-pid", strconv.Itoa(*pid), label).CombinedOutput()
	if err != nil {
		return fmt.Errorf("suncat mark: %v: %s", err, out)
	}
	return nil
}

func plan(db *sql.DB, q string) error {
	rows, err := db.Query("EXPLAIN FORMAT=TREE " + q)
	if err != nil {
		return err
	}
	defer rows.Close()
	fmt.Println(q)
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		fmt.Println("   ", s)
	}
	return rows.Err()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
