#!/bin/sh
# mkent.sh DIR: a driver of entgo.io/ent v0.14.5 on modernc.org/sqlite
# v1.62.0 in DIR (doc/cases/ent-calls.md): a schema of User with many
# Pets, ent's code generated into DIR/ent (go run entgo.io/ent/cmd/ent
# generate), and a main that seeds N users with 2 pets each in an
# in-memory database, then lists every user's pets:
#   entdrv nplus1 N   the users, then u.QueryPets().All per user (1+N queries)
#   entdrv eager N    client.User.Query().WithPets().All (2 queries)
#   entdrv flat N     the pets of one user (1 query), the control
#   entdrv list N     listPets: eager, or N+1 when built with -tags nplus1
# It prints the statements that reached SQLite in the listing (count.go
# wraps the database/sql driver and counts every query and exec).
set -e
dir=${1:?usage: mkent.sh DIR}
mkdir -p "$dir/ent/schema" && cd "$dir"
[ -f go.mod ] || go mod init example.com/entdrv
go get entgo.io/ent@v0.14.5 entgo.io/ent/cmd/ent@v0.14.5 modernc.org/sqlite@v1.62.0
cat >ent/schema/user.go <<'EOF'
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// User holds the schema definition for the User entity.
type User struct {
	ent.Schema
}

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("name"),
	}
}

// Edges of the User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("pets", Pet.Type),
	}
}
EOF
cat >ent/schema/pet.go <<'EOF'
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// Pet holds the schema definition for the Pet entity.
type Pet struct {
	ent.Schema
}

// Fields of the Pet.
func (Pet) Fields() []ent.Field {
	return []ent.Field{
		field.String("name"),
	}
}

// Edges of the Pet.
func (Pet) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("owner", User.Type).Ref("pets").Unique(),
	}
}
EOF
go run entgo.io/ent/cmd/ent generate ./ent/schema
cat >main.go <<'EOF'
// Command entdrv lists the pets of N users (2 pets each) with ent on
// SQLite: "nplus1" queries the users, then each user's pets; "eager"
// loads them all with WithPets; "flat" lists one user's pets while N
// grows; "list" calls listPets, eager by default and N+1 when built
// with -tags nplus1 (a pull request's change). It prints the statements each phase sent to SQLite.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"strconv"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"example.com/entdrv/ent"
	"example.com/entdrv/ent/user"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: entdrv nplus1|eager|flat|list N")
	}
	mode := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	db, err := sql.Open("sqlite-count", "file:ent?mode=memory&_pragma=foreign_keys(1)")
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one in-memory database
	client := ent.NewClient(ent.Driver(entsql.OpenDB(dialect.SQLite, db)))
	defer client.Close()
	ctx := context.Background()
	if err := client.Schema.Create(ctx); err != nil {
		log.Fatal(err)
	}
	seed(ctx, client, n)
	before := stmts.Load()
	var pets int
	switch mode {
	case "nplus1":
		pets = listNPlus1(ctx, client)
	case "eager":
		pets = listEager(ctx, client)
	case "flat":
		pets = listOne(ctx, client)
	case "list":
		pets = listPets(ctx, client)
	default:
		log.Fatalf("unknown mode %q", mode)
	}
	fmt.Printf("%s n=%d pets=%d statements=%d (seed and schema: %d)\n", mode, n, pets, stmts.Load()-before, before)
}

// seed creates n users and two pets for each, in two bulk inserts.
func seed(ctx context.Context, client *ent.Client, n int) {
	users := make([]*ent.UserCreate, n)
	for i := range users {
		users[i] = client.User.Create().SetName(fmt.Sprintf("user%d", i))
	}
	us, err := client.User.CreateBulk(users...).Save(ctx)
	if err != nil {
		log.Fatal(err)
	}
	pets := make([]*ent.PetCreate, 0, 2*n)
	for _, u := range us {
		for j := 0; j < 2; j++ {
			pets = append(pets, client.Pet.Create().SetName(fmt.Sprintf("%s-pet%d", u.Name, j)).SetOwner(u))
		}
	}
	if _, err := client.Pet.CreateBulk(pets...).Save(ctx); err != nil {
		log.Fatal(err)
	}
}

// listNPlus1 queries the users, then the pets of each: 1+N queries.
func listNPlus1(ctx context.Context, client *ent.Client) int {
	users, err := client.User.Query().All(ctx)
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, u := range users {
		pets, err := u.QueryPets().All(ctx)
		if err != nil {
			log.Fatal(err)
		}
		total += len(pets)
	}
	return total
}

// listEager loads the users with their pets: 2 queries.
func listEager(ctx context.Context, client *ent.Client) int {
	users, err := client.User.Query().WithPets().All(ctx)
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, u := range users {
		total += len(u.Edges.Pets)
	}
	return total
}

// listOne lists the pets of the first user only.
func listOne(ctx context.Context, client *ent.Client) int {
	pets, err := client.User.Query().Where(user.NameEQ("user0")).QueryPets().All(ctx)
	if err != nil {
		log.Fatal(err)
	}
	return len(pets)
}
EOF
cat >count.go <<'EOF'
package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync/atomic"

	sqlite "modernc.org/sqlite"
)

// stmts counts the statements that reach the SQLite driver: every
// query and exec, prepared or not. It is the truth the page compares
// suncat's counts with.
var stmts atomic.Int64

func init() { sql.Register("sqlite-count", countDriver{&sqlite.Driver{}}) }

type countDriver struct{ d driver.Driver }

func (c countDriver) Open(name string) (driver.Conn, error) {
	cn, err := c.d.Open(name)
	if err != nil {
		return nil, err
	}
	return countConn{cn}, nil
}

type countConn struct{ c driver.Conn }

func (c countConn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}
func (c countConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	s, err := c.c.(driver.ConnPrepareContext).PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return countStmt{s}, nil
}
func (c countConn) Close() error              { return c.c.Close() }
func (c countConn) Begin() (driver.Tx, error) { return c.c.Begin() } //nolint
func (c countConn) BeginTx(ctx context.Context, o driver.TxOptions) (driver.Tx, error) {
	return c.c.(driver.ConnBeginTx).BeginTx(ctx, o)
}
func (c countConn) QueryContext(ctx context.Context, q string, a []driver.NamedValue) (driver.Rows, error) {
	stmts.Add(1)
	return c.c.(driver.QueryerContext).QueryContext(ctx, q, a)
}
func (c countConn) ExecContext(ctx context.Context, q string, a []driver.NamedValue) (driver.Result, error) {
	stmts.Add(1)
	return c.c.(driver.ExecerContext).ExecContext(ctx, q, a)
}

type countStmt struct{ s driver.Stmt }

func (s countStmt) Close() error                                 { return s.s.Close() }
func (s countStmt) NumInput() int                                { return s.s.NumInput() }
func (s countStmt) Exec(a []driver.Value) (driver.Result, error) { stmts.Add(1); return s.s.Exec(a) }  //nolint
func (s countStmt) Query(a []driver.Value) (driver.Rows, error)  { stmts.Add(1); return s.s.Query(a) } //nolint
func (s countStmt) ExecContext(ctx context.Context, a []driver.NamedValue) (driver.Result, error) {
	stmts.Add(1)
	return s.s.(driver.StmtExecContext).ExecContext(ctx, a)
}
func (s countStmt) QueryContext(ctx context.Context, a []driver.NamedValue) (driver.Rows, error) {
	stmts.Add(1)
	return s.s.(driver.StmtQueryContext).QueryContext(ctx, a)
}
EOF
cat >list_eager.go <<'EOF'
//go:build !nplus1

package main

import (
	"context"
	"log"

	"example.com/entdrv/ent"
)

// listPets, as on main: the pets loaded with the users (2 queries).
func listPets(ctx context.Context, client *ent.Client) int {
	users, err := client.User.Query().WithPets().All(ctx)
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, u := range users {
		total += len(u.Edges.Pets)
	}
	return total
}
EOF
cat >list_nplus1.go <<'EOF'
//go:build nplus1

package main

import (
	"context"
	"log"

	"example.com/entdrv/ent"
)

// listPets, as a pull request rewrites it: each user's pets queried in
// the loop (1+N queries).
func listPets(ctx context.Context, client *ent.Client) int {
	users, err := client.User.Query().All(ctx)
	if err != nil {
		log.Fatal(err)
	}
	total := 0
	for _, u := range users {
		pets, err := u.QueryPets().All(ctx)
		if err != nil {
			log.Fatal(err)
		}
		total += len(pets)
	}
	return total
}
EOF
go mod tidy
go vet . && go vet -tags nplus1 .
