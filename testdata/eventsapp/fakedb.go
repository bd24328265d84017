package main

// A fake database/sql driver: every query returns the rows 1..100 of one
// int column.

import (
	"database/sql"
	"database/sql/driver"
	"io"
)

func init() { sql.Register("fake", fakeDriver{}) }

type fakeDriver struct{}
type fakeConn struct{}
type fakeStmt struct{ q string }
type fakeRows struct{ i int }

func (fakeDriver) Open(string) (driver.Conn, error)          { return fakeConn{}, nil }
func (fakeConn) Prepare(q string) (driver.Stmt, error)       { return &fakeStmt{q}, nil }
func (fakeConn) Close() error                                { return nil }
func (fakeConn) Begin() (driver.Tx, error)                   { return nil, io.EOF }
func (*fakeStmt) Close() error                               { return nil }
func (*fakeStmt) NumInput() int                              { return -1 }
func (*fakeStmt) Exec([]driver.Value) (driver.Result, error) { return driver.RowsAffected(1), nil }
func (*fakeStmt) Query([]driver.Value) (driver.Rows, error)  { return &fakeRows{}, nil }
func (*fakeRows) Columns() []string                          { return []string{"id"} }
func (*fakeRows) Close() error                               { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i >= 100 {
		return io.EOF
	}
	r.i++
	dest[0] = int64(r.i)
	return nil
}
