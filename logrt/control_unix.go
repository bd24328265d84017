//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package logrt

import (
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// serveControl listens on this process's control socket and serves
// requests, each connection on its own goroutine, for as long as the
// process lives. Any failure
// just leaves the process without a control channel.
func serveControl(tracePath string) {
	dir := tracefmt.ControlDir()
	if err := os.MkdirAll(dir, 0o700); err != nil || tracefmt.CheckPrivateDir(dir) != nil {
		return
	}
	sock := controlSocket(os.Getpid())
	os.Remove(sock) // left by an earlier process with the same pid
	// The socket gets its name only once it listens: a client finding a
	// bound socket that does not listen yet would be refused, and take
	// the socket for one left by a process that is gone.
	tmp := sock + ".new"
	os.Remove(tmp)
	fd, err := listenUnix(tmp)
	if err != nil {
		return
	}
	if err := os.Rename(tmp, sock); err != nil {
		syscall.Close(fd)
		os.Remove(tmp)
		return
	}
	// A non-blocking descriptor given to os.NewFile is served by the
	// runtime's poller: Accept below waits without holding a thread.
	l := os.NewFile(uintptr(fd), sock)
	rc, err := l.SyscallConn()
	if err != nil {
		l.Close()
		return
	}
	for {
		var nfd int
		var aerr error
		err := rc.Read(func(fd uintptr) bool {
			nfd, aerr = accept(int(fd))
			return aerr != syscall.EAGAIN && aerr != syscall.EINTR
		})
		if err != nil {
			return
		}
		if aerr != nil {
			if aerr == syscall.ECONNABORTED || aerr == syscall.EMFILE || aerr == syscall.ENFILE {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return
		}
		if err := syscall.SetNonblock(nfd, true); err != nil {
			syscall.Close(nfd)
			continue
		}
		serveConn(os.NewFile(uintptr(nfd), "control"), tracePath)
	}
}

// serveConn serves connection c on its own goroutine, so that one that
// sends nothing does not hold up the others; at most maxControlConns at
// once. When that many are served, the one that has waited longest for
// its request line is closed to make room: a crowd of idle clients
// cannot hold up a request.
func serveConn(c *os.File, tracePath string) {
	if len(sem) == cap(sem) {
		waiting.Lock()
		if len(waiting.list) > 0 {
			waiting.list[0].Close()
			waiting.list = waiting.list[1:]
		}
		waiting.Unlock()
	}
	sem <- struct{}{}
	waiting.Lock()
	waiting.list = append(waiting.list, c)
	waiting.Unlock()
	go func() {
		defer func() { <-sem }()
		c.SetReadDeadline(time.Now().Add(controlReadLimit))
		handleControl(c, tracePath, func() { stopWaiting(c) })
		c.Close()
	}()
}

// stopWaiting takes c off the list of connections waiting for their
// request line.
func stopWaiting(c *os.File) {
	waiting.Lock()
	defer waiting.Unlock()
	for i, w := range waiting.list {
		if w == c {
			waiting.list = append(waiting.list[:i], waiting.list[i+1:]...)
			return
		}
	}
}

// maxControlConns bounds the connections served at once.
const maxControlConns = 16

var sem = make(chan struct{}, maxControlConns)

// waiting lists the connections served that wait for their request
// line, oldest first.
var waiting struct {
	sync.Mutex
	list []*os.File
}

// controlReadLimit is how long a client has to send its request line
// once connected (a variable for tests).
var controlReadLimit = 2 * time.Second

// accept accepts a connection on the listening socket fd, on a
// descriptor above standard error and closed on exec (aboveStdio).
func accept(fd int) (int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	nfd, _, err := syscall.Accept(fd)
	if err != nil {
		return -1, err
	}
	return aboveStdio(nfd)
}

// listenBacklog is the control socket's queue of connections not yet
// accepted. A client finds it full with EAGAIN (a Unix socket refuses at
// once rather than wait): with 16, 64 idle clients dialled at once left
// the next request refused while the server, slowed by the race
// detector, had not yet accepted them.
const listenBacklog = 128

func listenUnix(path string) (int, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		fd, err = aboveStdio(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}); err == nil {
		if err = syscall.Listen(fd, listenBacklog); err == nil {
			err = syscall.SetNonblock(fd, true)
		}
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}
