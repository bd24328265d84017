// A bookmark manager's import, for TestDepCallback: an HTML library's
// Each calls back once per link; the callback looks each bookmark up.
package main

func importHTML(db *DB, doc *htmlq.Document) {
	doc.Find("a").Each(func(i int, s *htmlq.Selection) {
		url, _ := s.Attr("href")
		lookup(db, url)
	})
}

func lookup(db *DB, url string) bool {
	return db.QueryRow("SELECT id FROM bookmarks WHERE url = ?", url).Scan() == nil
}
