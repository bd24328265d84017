// Package app is the user's code of TestHookedCallThroughORM: a list,
// then one query per item through an ORM (an N+1).
package app

func listPosts(db *DB) {
	for _, p := range posts(db) {
		db.Find(p)
	}
}
