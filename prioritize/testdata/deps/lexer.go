// A lexer, for TestDepLexerLoop: a bare for loop emits an item a turn,
// and, once a run, at the end of the input, the EOF item, in the same
// loop and under the same callers; the loop over the files around it
// turns once.
package main

func (l *lexer) run() {
	for {
		if l.atEOF() {
			l.emit(eof)
			return
		}
		l.emit(l.next())
	}
}

func lexFiles(files []string) {
	for _, f := range files {
		l := &lexer{src: read(f)}
		l.run()
	}
}
