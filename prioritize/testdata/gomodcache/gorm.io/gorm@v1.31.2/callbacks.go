// A dependency's file in a module cache that is not under .../pkg/mod/
// (GOMODCACHE set elsewhere), for TestHookedCallThroughORM: the ORM runs
// its callbacks, the query among them, from a loop of its own.
package gorm

func (p *processor) Execute(db *DB) *DB {
	for _, f := range p.fns {
		f(db)
	}
	return db
}
