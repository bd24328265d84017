// The source of TestResponsibleTwoLoops: a router's two loops in one
// function. The line numbers below are the frames' lines.
package loops

type route struct{ path string }

func (r *route) Path() string { return r.path }

// add registers a route (no loop).
func add(rs []*route, r *route, h func()) []*route {
	_ = r.Path()
	return append(rs, r)
}

// match scans the routes for a path: the loop that grows per request.
func match(rs []*route, p string) *route {
	for _, r := range rs {
		if r.Path() == p {
			return r
		}
	}
	return nil
}

// serve registers n routes, each with a handler literal that starts on
// the line of the call, then serves requests, each scanning the routes.
func serve(n, reqs int) {
	var rs []*route
	for i := 0; i < n; i++ {
		rs = add(rs, &route{}, func() {
			println("handler")
		})
	}
	for i := 0; i < reqs; i++ {
		match(rs, "/last")
	}
}
