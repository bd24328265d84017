// Command eventsapp is suncat's sample for -reads and -calls: a task list
// looked up by alias (reading a []string field of every task per lookup:
// quadratic), orders whose items are loaded one query per order (an N+1
// through database/sql, on a fake driver of its own: no network, no
// database), and one HTTP request per task to a server of its own.
//
//	eventsapp N
package main

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
)

// A Task has a name, aliases and a priority.
type Task struct {
	Name     string
	Aliases  []string
	Priority int
	done     bool
}

// A Store holds the tasks in a list.
type Store struct{ tasks []*Task }

// Find scans every task, reading its aliases: linear per lookup.
func (s *Store) Find(alias string) *Task {
	for _, t := range s.tasks {
		for _, a := range t.Aliases {
			if a == alias {
				return t
			}
		}
	}
	return nil
}

// ByName scans every task, reading its name.
func (s *Store) ByName(name string) *Task {
	for _, t := range s.tasks {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func fetch(key string) string { return "n-" + key }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: eventsapp N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 1 || n > 100 {
		fmt.Fprintln(os.Stderr, "eventsapp: N must be 1..100")
		os.Exit(2)
	}
	fmt.Println(run(n))
}

func run(n int) string {
	s := &Store{}
	for i := 0; i < n; i++ {
		s.tasks = append(s.tasks, &Task{Name: fmt.Sprint("task", i), Aliases: []string{fmt.Sprint("a", i)}, Priority: i})
	}
	sum := lookups(s, n)
	db, err := sql.Open("fake", "")
	if err != nil {
		panic(err)
	}
	items := loadItems(db, orders(db)[:n])
	fetched := fetchAll(n)
	return fmt.Sprintf("%d tasks, priority %d, %d items, %d fetched", n, sum, items, fetched)
}

// lookups finds every task by alias and by name.
func lookups(s *Store, n int) int {
	sum := 0
	for i := 0; i < n; i++ {
		if t := s.Find(fmt.Sprint("a", i)); t != nil {
			sum += t.Priority
			t.done = true
		}
		if t := s.ByName(fmt.Sprint("task", i)); t == nil {
			panic("lost a task")
		}
	}
	return sum
}

// orders lists the orders' ids in one query, a prepared statement.
func orders(db *sql.DB) []int {
	stmt, err := db.Prepare("SELECT id FROM orders")
	if err != nil {
		panic(err)
	}
	defer stmt.Close()
	rows, err := stmt.Query()
	if err != nil {
		panic(err)
	}
	var ids []int
	for rows.Next() {
		var id int
		rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// loadItems loads each order's item with a query of its own: N+1.
func loadItems(db *sql.DB, ids []int) int {
	items := 0
	for _, id := range ids {
		var item int
		if db.QueryRow("SELECT item FROM items WHERE order_id = ?", id).Scan(&item) == nil {
			items++
		}
	}
	return items
}

// fetchAll requests one URL per task from a server of its own.
func fetchAll(n int) int {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	fetched := 0
	for i := 0; i < n; i++ {
		resp, err := http.Get(srv.URL + "/task/" + strconv.Itoa(i) + "?v=1")
		if err == nil {
			resp.Body.Close()
			fetched++
		}
		fetch(strconv.Itoa(i))
	}
	return fetched
}
