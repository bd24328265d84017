package gorm

func (db *DB) Find(dest interface{}) *DB {
	return db.callbacks.Query().Execute(db)
}
