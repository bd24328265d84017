package main

// A driver that sanitizes one document reps times (once, here), for
// TestDepOwnLoop: its loop does not grow with the document.

func sanitizeAll(p *Policy, doc []token, reps int) {
	for r := 0; r < reps; r++ {
		p.Sanitize(doc)
	}
}
