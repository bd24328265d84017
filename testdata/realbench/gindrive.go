//go:build ignore

// Command gindrv serves gin engines of N routes on a real listener
// (httptest.NewServer on 127.0.0.1) and exercises them from an
// in-process client, for each size of -sizes in turn (doc/cases/gin-reads.md):
//
//	setup n=N   build a fresh engine of N routes (a third static /r/I, a
//	            third /u/:id/I, a third in a group /g with a middleware)
//	reqs n=N    one GET to each of the N routes
//	fixed n=N   100 GETs to /r/0 (the flat control)
//	bind n=N    one POST /bind of a JSON body of N items, ShouldBindJSON
//	            into a struct with binding tags (required, min, max, dive)
//
// With -suncat PATH it runs `PATH mark -pid SELF "ACTION n=N"` before each
// action, so one process is one trace of 16 labelled sub-traces. -upto
// ACTION stops each size after that action (start: before the setup);
// a -cover build run once per size and -upto gives each action's own
// counts as the difference of two runs.
//
// usage: gindrv [-sizes 250,500,1000,2000] [-suncat PATH] [-upto start|setup|reqs|fixed|bind]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

type Item struct {
	ID   int    `json:"id" binding:"required,min=1"`
	Name string `json:"name" binding:"required,max=32"`
}

type Payload struct {
	Items []Item `json:"items" binding:"required,dive"`
}

func engine(n int) *gin.Engine {
	r := gin.New()
	ok := func(c *gin.Context) { c.String(http.StatusOK, "ok") }
	g := r.Group("/g", func(c *gin.Context) { c.Set("mw", true); c.Next() })
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			r.GET("/r/"+strconv.Itoa(i), ok)
		case 1:
			r.GET("/u/:id/"+strconv.Itoa(i), func(c *gin.Context) { c.String(http.StatusOK, c.Param("id")) })
		case 2:
			g.GET("/"+strconv.Itoa(i), ok)
		}
	}
	r.POST("/bind", func(c *gin.Context) {
		var p Payload
		if err := c.ShouldBindJSON(&p); err != nil {
			c.String(http.StatusBadRequest, err.Error())
			return
		}
		c.String(http.StatusOK, strconv.Itoa(len(p.Items)))
	})
	return r
}

func path(i int) string {
	switch i % 3 {
	case 0:
		return "/r/" + strconv.Itoa(i)
	case 1:
		return "/u/" + strconv.Itoa(i*7) + "/" + strconv.Itoa(i)
	}
	return "/g/" + strconv.Itoa(i)
}

func get(cl *http.Client, url string) string {
	resp, err := cl.Get(url)
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		panic(url + ": " + resp.Status)
	}
	return string(b)
}

func main() {
	sizes := flag.String("sizes", "250,500,1000,2000", "comma-separated route counts")
	suncat := flag.String("suncat", "", "the suncat binary: mark each action")
	upto := flag.String("upto", "bind", "the last action of each size: start, setup, reqs, fixed or bind")
	flag.Parse()
	gin.SetMode(gin.ReleaseMode)
	order := []string{"start", "setup", "reqs", "fixed", "bind"}
	last := -1
	for i, a := range order {
		if a == *upto {
			last = i
		}
	}
	if last < 0 {
		panic("-upto " + *upto)
	}
	cl := &http.Client{}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			panic(err)
		}
		var srv *httptest.Server
		for _, a := range order[1 : last+1] {
			if *suncat != "" {
				label := a + " n=" + s
				if out, err := exec.Command(*suncat, "mark", "-pid", strconv.Itoa(os.Getpid()), label).CombinedOutput(); err != nil {
					panic(fmt.Sprintf("suncat mark: %v: %s", err, out))
				}
			}
			served := 0
			switch a {
			case "setup":
				srv = httptest.NewServer(engine(n))
			case "reqs":
				for i := 0; i < n; i++ {
					get(cl, srv.URL+path(i))
					served++
				}
			case "fixed":
				for i := 0; i < 100; i++ {
					get(cl, srv.URL+"/r/0")
					served++
				}
			case "bind":
				var b bytes.Buffer
				b.WriteString(`{"items":[`)
				for i := 0; i < n; i++ {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, `{"id":%d,"name":"item%d"}`, i+1, i)
				}
				b.WriteString(`]}`)
				resp, err := cl.Post(srv.URL+"/bind", "application/json", &b)
				if err != nil {
					panic(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(body) != strconv.Itoa(n) {
					panic("bind: " + string(body))
				}
				served++
			}
			fmt.Printf("%s n=%d served=%d\n", a, n, served)
		}
		if srv != nil {
			srv.Close()
		}
	}
	if *suncat != "" {
		exec.Command(*suncat, "mark", "-pid", strconv.Itoa(os.Getpid()), "end").Run()
	}
}
