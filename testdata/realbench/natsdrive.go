//go:build ignore

// Command natsdrive runs one workload of N operations against a NATS server
// and checks that every message arrives.
//
//	natsdrive URL MODE N
//
// The modes (I from 0 to N-1):
//   - literal: N subscriptions on lit.I, one publish to each (N messages)
//   - wild: a subscription on w.>, then N on w.I.*, then a publish to each
//     w.I.x (2N messages)
//   - wildi: the same, interleaved: subscribe w.I.*, publish w.I.x, ...
//   - queue: N queue subscriptions on q, each in its own group g.I, then
//     one publish to q (N messages, one per group)
//   - churn: N subscriptions on c, then N times: unsubscribe the oldest,
//     subscribe a new one; then one publish to c (N messages)
//   - flat: N subscriptions on x.I (never published to), then, after the
//     mark "pub n=N" (suncat mark -pid $PID, when PID is set), 1000
//     publishes to f with one subscriber (1000 messages)
//
// It needs nats.go, so it builds in a module of its own
// (doc/cases/nats-reads.md; the versions are nats-server v2.15.2's):
//
//	mkdir natsdrive && cp natsdrive.go natsdrive/main.go && cd natsdrive
//	sed -i 1,2d main.go && go mod init natsdrive
//	go get github.com/nats-io/nats.go@v1.53.1 github.com/klauspost/compress@v1.20.3 github.com/nats-io/nkeys@v0.4.16
//	go build
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

func die(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "drive: "+f+"\n", a...)
	os.Exit(1)
}

func main() {
	if len(os.Args) != 4 {
		die("usage: drive URL MODE N")
	}
	n, err := strconv.Atoi(os.Args[3])
	if err != nil {
		die("%v", err)
	}
	nc, err := nats.Connect(os.Args[1], nats.MaxReconnects(0))
	if err != nil {
		die("%v", err)
	}
	defer nc.Close()
	var got atomic.Int64
	h := func(*nats.Msg) { got.Add(1) }
	sub := func(s string) *nats.Subscription {
		x, err := nc.Subscribe(s, h)
		if err != nil {
			die("%v", err)
		}
		x.SetPendingLimits(-1, -1)
		return x
	}
	pub := func(s string) {
		if err := nc.Publish(s, []byte("x")); err != nil {
			die("%v", err)
		}
	}
	want := int64(n)
	switch os.Args[2] {
	case "literal":
		for i := 0; i < n; i++ {
			sub(fmt.Sprintf("lit.%d", i))
		}
		for i := 0; i < n; i++ {
			pub(fmt.Sprintf("lit.%d", i))
		}
	case "wild", "wildi":
		sub("w.>")
		if os.Args[2] == "wild" {
			for i := 0; i < n; i++ {
				sub(fmt.Sprintf("w.%d.*", i))
			}
			for i := 0; i < n; i++ {
				pub(fmt.Sprintf("w.%d.x", i))
			}
		} else {
			for i := 0; i < n; i++ {
				sub(fmt.Sprintf("w.%d.*", i))
				pub(fmt.Sprintf("w.%d.x", i))
			}
		}
		want = 2 * int64(n)
	case "queue":
		for i := 0; i < n; i++ {
			x, err := nc.QueueSubscribe("q", fmt.Sprintf("g.%d", i), h)
			if err != nil {
				die("%v", err)
			}
			x.SetPendingLimits(-1, -1)
		}
		if err := nc.Flush(); err != nil {
			die("%v", err)
		}
		pub("q")
	case "churn":
		subs := make([]*nats.Subscription, 0, 2*n)
		for i := 0; i < n; i++ {
			subs = append(subs, sub("c"))
		}
		for i := 0; i < n; i++ {
			if err := subs[i].Unsubscribe(); err != nil {
				die("%v", err)
			}
			subs = append(subs, sub("c"))
		}
		if err := nc.Flush(); err != nil {
			die("%v", err)
		}
		pub("c")
	case "flat":
		for i := 0; i < n; i++ {
			sub(fmt.Sprintf("x.%d", i))
		}
		sub("f")
		if err := nc.Flush(); err != nil {
			die("%v", err)
		}
		if pid := os.Getenv("PID"); pid != "" {
			out, err := exec.Command("suncat", "mark", "-pid", pid, fmt.Sprintf("pub n=%d", n)).CombinedOutput()
			if err != nil {
				die("mark: %v: %s", err, out)
			}
		}
		for i := 0; i < 1000; i++ {
			pub("f")
		}
		want = 1000
	default:
		die("unknown mode %q", os.Args[2])
	}
	if err := nc.Flush(); err != nil {
		die("%v", err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for got.Load() < want {
		if time.Now().After(deadline) {
			die("%s n=%d: got %d of %d messages", os.Args[2], n, got.Load(), want)
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	if g := got.Load(); g != want {
		die("%s n=%d: got %d messages, want %d", os.Args[2], n, g, want)
	}
	if os.Getenv("PID") != "" && os.Args[2] == "flat" {
		exec.Command("suncat", "mark", "-pid", os.Getenv("PID"), fmt.Sprintf("close n=%d", n)).Run()
	}
	fmt.Printf("%s n=%d: %d messages\n", os.Args[2], n, want)
}
