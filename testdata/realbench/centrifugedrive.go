//go:build ignore

// Command drv drives an in-process centrifuge.Node (memory broker and
// presence manager) through one workload at several sizes, with a
// `suncat mark "WORK n=N"` before the measured action of each size (and
// `setup n=N` before its setup), so one process is one trace.
//
// usage: drv -work fanout|history|presence|unsub|disconnect|join|flat [-sizes 250,500,1000,2000] [-suncat PATH]
//
// -skip does everything but the action: with a -cover build, the counts
// of a run minus those of a -skip run at the same size are the action's.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/centrifugal/centrifuge"
)

// transport is a unidirectional in-process connection that counts writes.
type transport struct{ writes *atomic.Int64 }

func (t transport) Name() string                                { return "drv" }
func (t transport) AcceptProtocol() string                      { return "" }
func (t transport) Protocol() centrifuge.ProtocolType           { return centrifuge.ProtocolTypeJSON }
func (t transport) ProtocolVersion() centrifuge.ProtocolVersion { return centrifuge.ProtocolVersion2 }
func (t transport) Unidirectional() bool                        { return true }
func (t transport) Emulation() bool                             { return false }
func (t transport) DisabledPushFlags() uint64                   { return 0 }
func (t transport) PingPongConfig() centrifuge.PingPongConfig {
	return centrifuge.PingPongConfig{PingInterval: -1, PongTimeout: -1}
}
func (t transport) Write(b []byte) error { t.writes.Add(1); return nil }
func (t transport) WriteMany(bs ...[]byte) error {
	t.writes.Add(int64(len(bs)))
	return nil
}
func (t transport) Close(centrifuge.Disconnect) error { return nil }

var (
	work    = flag.String("work", "fanout", "workload")
	sizes   = flag.String("sizes", "250,500,1000,2000", "sizes")
	suncat  = flag.String("suncat", "", "suncat binary for marks (none: no marks)")
	skip    = flag.Bool("skip", false, "do the setup only, not the action (for -cover counts: a run with minus one without)")
	writes  atomic.Int64
	subOpts centrifuge.SubscribeOptions
	disc    = make(chan struct{}, 1<<20)
)

func mark(label string) {
	if *suncat == "" {
		return
	}
	out, err := exec.Command(*suncat, "mark", "-pid", strconv.Itoa(os.Getpid()), label).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mark %q: %v %s\n", label, err, out)
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func newNode() *centrifuge.Node {
	node, err := centrifuge.New(centrifuge.Config{LogLevel: centrifuge.LogLevelNone})
	must(err)
	node.OnConnecting(func(ctx context.Context, e centrifuge.ConnectEvent) (centrifuge.ConnectReply, error) {
		subs := map[string]centrifuge.SubscribeOptions{}
		if e.Token != "" {
			for _, ch := range strings.Split(e.Token, ",") {
				subs[ch] = subOpts
			}
		}
		return centrifuge.ConnectReply{Subscriptions: subs}, nil
	})
	node.OnConnect(func(c *centrifuge.Client) {
		c.OnDisconnect(func(centrifuge.DisconnectEvent) { disc <- struct{}{} })
	})
	must(node.Run())
	return node
}

// connect connects a client of user to the comma-separated channels.
func connect(node *centrifuge.Node, user, chans string) *centrifuge.Client {
	ctx := centrifuge.SetCredentials(context.Background(), &centrifuge.Credentials{UserID: user})
	c, _, err := centrifuge.NewClient(ctx, node, transport{&writes})
	must(err)
	must(c.ConnectNoErrorToDisconnect(centrifuge.ConnectRequest{Token: chans}))
	return c
}

// waitWrites waits until the transports have seen at least n writes.
func waitWrites(n int64) {
	deadline := time.Now().Add(30 * time.Second)
	for writes.Load() < n {
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "timeout: %d of %d writes\n", writes.Load(), n)
			os.Exit(1)
		}
		time.Sleep(time.Millisecond)
	}
}

func user(i int) string { return "u" + strconv.Itoa(i) }

func run(n int) {
	node := newNode()
	defer func() { _ = node.Shutdown(context.Background()) }()
	data := []byte(`{"x":1}`)
	label := fmt.Sprintf("%s n=%d", *work, n)
	var setup, action func()
	switch *work {
	case "fanout": // N subscribers of one channel, one publish
		setup = func() {
			for i := 0; i < n; i++ {
				connect(node, user(i), "fan")
			}
		}
		action = func() {
			w := writes.Load()
			_, err := node.Publish("fan", data)
			must(err)
			waitWrites(w + int64(n))
		}
	case "history": // N channels, a publish with history to each, then a History of each
		action = func() {
			for i := 0; i < n; i++ {
				_, err := node.Publish("h"+strconv.Itoa(i), data, centrifuge.WithHistory(10, time.Minute))
				must(err)
			}
			for i := 0; i < n; i++ {
				r, err := node.History("h"+strconv.Itoa(i), centrifuge.WithLimit(-1))
				must(err)
				if len(r.Publications) != 1 {
					fmt.Fprintf(os.Stderr, "history of h%d: %d publications\n", i, len(r.Publications))
					os.Exit(1)
				}
			}
		}
	case "presence": // N clients in one channel with presence; Presence and PresenceStats
		subOpts = centrifuge.SubscribeOptions{EmitPresence: true}
		setup = func() {
			for i := 0; i < n; i++ {
				connect(node, user(i), "pres")
			}
		}
		action = func() {
			p, err := node.Presence("pres")
			must(err)
			st, err := node.PresenceStats("pres")
			must(err)
			if len(p.Presence) != n || st.NumClients != n {
				fmt.Fprintf(os.Stderr, "presence %d stats %d, want %d\n", len(p.Presence), st.NumClients, n)
				os.Exit(1)
			}
		}
	case "join", "unsub", "disconnect": // a room with presence and join/leave pushes
		subOpts = centrifuge.SubscribeOptions{EmitPresence: true, EmitJoinLeave: true, PushJoinLeave: true}
		room := func() {
			for i := 0; i < n; i++ {
				connect(node, user(i), "room")
			}
		}
		if *work == "join" {
			action = room
			break
		}
		setup = room
		action = func() {
			for i := 0; i < n; i++ {
				if *work == "unsub" {
					must(node.Unsubscribe(user(i), "room"))
				} else {
					must(node.Disconnect(user(i)))
					<-disc // the client is closed: its leave is broadcast
				}
			}
			settle()
			if got := node.Hub().NumSubscribers("room"); got != 0 {
				fmt.Fprintf(os.Stderr, "%d subscribers left\n", got)
				os.Exit(1)
			}
		}
	case "flat": // N channels with one subscriber each; 100 publishes to one channel with one subscriber
		setup = func() {
			for i := 0; i < n; i++ {
				connect(node, user(i), "c"+strconv.Itoa(i))
			}
			connect(node, "flat", "flat")
		}
		action = func() {
			w := writes.Load()
			for k := 0; k < 100; k++ {
				_, err := node.Publish("flat", data)
				must(err)
			}
			waitWrites(w + 100)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown work", *work)
		os.Exit(2)
	}
	if setup != nil {
		mark(fmt.Sprintf("setup n=%d", n))
		setup()
		settle()
	}
	if !*skip {
		mark(label)
		action()
		settle()
	}
	mark(fmt.Sprintf("close n=%d", n))
	fmt.Printf("%s: %d writes\n", label, writes.Load())
}

// settle waits until no write happened for 50 ms.
func settle() {
	last := writes.Load()
	for {
		time.Sleep(50 * time.Millisecond)
		cur := writes.Load()
		if cur == last {
			return
		}
		last = cur
	}
}

func main() {
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(s)
		must(err)
		writes.Store(0)
		for len(disc) > 0 {
			<-disc
		}
		run(n)
	}
}
