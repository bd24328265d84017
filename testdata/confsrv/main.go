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
	"net/url"
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

// runScript serves each request path of in without a network. Blank
// lines and lines starting with # are skipped; anything else must be a
// path starting with "/".
func runScript(h http.Handler, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	for line := 1; sc.Scan(); line++ {
		path := strings.TrimSpace(sc.Text())
		if path == "" || strings.HasPrefix(path, "#") {
			continue
		}
		if _, err := url.ParseRequestURI(path); err != nil || !strings.HasPrefix(path, "/") {
			return fmt.Errorf("line %d: %q is not a request path (want one like /session?title=Talk%%2006)", line, path)
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
	flag.Usage = usage
	flag.Parse()
	switch {
	case flag.NArg() > 0:
		fmt.Fprintf(os.Stderr, "confsrv: unexpected arguments %q\n", strings.Join(flag.Args(), " "))
		usage()
		os.Exit(2)
	case *addr != "" && *script != "":
		fmt.Fprintln(os.Stderr, "confsrv: -addr and -script: give one of them")
		os.Exit(2)
	case *n < 0:
		fmt.Fprintf(os.Stderr, "confsrv: -sessions %d: want 0 or more\n", *n)
		os.Exit(2)
	}
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
		usage()
		os.Exit(2)
	}
}

func usage() {
	fmt.Fprint(flag.CommandLine.Output(), `usage: confsrv -addr ADDRESS | -script FILE|- [-sessions N]

Confsrv serves a conference schedule: /session?title=T (a linear search
over the titles), /sessions/count and /rooms. With -script it serves the
request paths of FILE, one per line (# comments), in-process, and prints
"ok <status> <body>" for each.

Examples:

	confsrv -addr :8080
	confsrv -script scenario.txt
	echo /rooms | confsrv -script -

Flags:
`)
	flag.PrintDefaults()
}
