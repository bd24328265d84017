// Command confsrv serves a conference schedule, modelled on the
// Conference app of the SUNCAT paper. One request type, /session?title=T,
// finds a session by a linear search over all sessions, reading every
// title through a getter: its cost grows with the schedule and varies with
// where the title is. /sessions/count and /rooms are constant work.
//
//	confsrv -addr :8080        serve HTTP
//	confsrv -script FILE|-     run request paths, one per line, in-process,
//	                           printing "ok <status> <body>" for each
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
)

// A Session is one talk of the schedule.
type Session struct {
	title   string
	speaker string
	room    string
}

// Title returns the session's title.
func (s *Session) Title() string { return s.title }

// Speaker returns the session's speaker.
func (s *Session) Speaker() string { return s.speaker }

// Room returns the session's room.
func (s *Session) Room() string { return s.room }

// A Schedule is the whole conference.
type Schedule struct{ sessions []*Session }

// NewSchedule builds n sessions in 3 rooms.
func NewSchedule(n int) *Schedule {
	sc := &Schedule{}
	rooms := []string{"Hall A", "Hall B", "Room 101"}
	for i := 0; i < n; i++ {
		sc.sessions = append(sc.sessions, &Session{
			title:   fmt.Sprintf("Talk %02d", i+1),
			speaker: fmt.Sprintf("Speaker %02d", i+1),
			room:    rooms[i%len(rooms)],
		})
	}
	return sc
}

// Find returns the session with the given title.
//
// The linear search is the point of this sample: it reads the title of
// every session before the one it finds.
func (sc *Schedule) Find(title string) *Session {
	for _, s := range sc.sessions {
		if s.Title() == title {
			return s
		}
	}
	return nil
}

func (sc *Schedule) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/session", func(w http.ResponseWriter, r *http.Request) {
		s := sc.Find(r.URL.Query().Get("title"))
		if s == nil {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, "%s by %s in %s", s.Title(), s.Speaker(), s.Room())
	})
	mux.HandleFunc("/sessions/count", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%d", len(sc.sessions))
	})
	mux.HandleFunc("/rooms", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "Hall A, Hall B, Room 101")
	})
	return mux
}

// runScript serves each request path of in without a network.
func runScript(h http.Handler, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		path := strings.TrimSpace(sc.Text())
		if path == "" || strings.HasPrefix(path, "#") {
			continue
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		fmt.Fprintf(out, "ok %d %s\n", rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return sc.Err()
}

func main() {
	addr := flag.String("addr", "", "serve HTTP on `address`")
	script := flag.String("script", "", "serve the request paths in `file` (- for standard input) in-process")
	n := flag.Int("sessions", 12, "number of sessions in the schedule")
	flag.Parse()
	h := NewSchedule(*n).handler()
	switch {
	case *script != "":
		in := io.Reader(os.Stdin)
		if *script != "-" {
			f, err := os.Open(*script)
			if err != nil {
				fmt.Fprintln(os.Stderr, "confsrv:", err)
				os.Exit(1)
			}
			defer f.Close()
			in = f
		}
		if err := runScript(h, in, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "confsrv:", err)
			os.Exit(1)
		}
	case *addr != "":
		fmt.Fprintln(os.Stderr, "confsrv: listening on", *addr)
		if err := http.ListenAndServe(*addr, h); err != nil {
			fmt.Fprintln(os.Stderr, "confsrv:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: confsrv -addr :8080 | -script FILE")
		os.Exit(2)
	}
}
