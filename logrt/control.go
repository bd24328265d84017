package logrt

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// The control channel lets `suncat mark`, `suncat pause` and `suncat
// resume` reach a running instrumented program without any code of the
// user's and without signals (so it cannot steal one the program handles).
// When a process opens its trace it listens on a unix socket
// <ControlDir>/<pid>.sock, served by one goroutine. A request is one line,
// "mark <label>", "pause", "resume" or "info"; the reply, sent after the
// record is in the trace, is "ok <pid> <program> <trace path>". Set
// SUNCAT_CONTROL=off to not listen.

// ControlDir is the directory of the control sockets of live processes.
func ControlDir() string { return filepath.Join(os.TempDir(), "suncat-ctl") }

func controlSocket(pid int) string {
	return filepath.Join(ControlDir(), fmt.Sprintf("%d.sock", pid))
}

func startControl(tracePath string) {
	if os.Getenv("SUNCAT_CONTROL") == "off" {
		return
	}
	go serveControl(tracePath)
}

func serveControl(tracePath string) {
	if err := os.MkdirAll(ControlDir(), 0o700); err != nil {
		return
	}
	sock := controlSocket(os.Getpid())
	os.Remove(sock) // left by an earlier process with the same pid
	l, err := net.Listen("unix", sock)
	if err != nil {
		return
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go handleControl(c, tracePath)
	}
}

func handleControl(c net.Conn, tracePath string) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return
	}
	line = strings.TrimRight(line, "\r\n")
	cmd, arg := line, ""
	if i := strings.IndexByte(line, ' '); i >= 0 {
		cmd, arg = line[:i], line[i+1:]
	}
	switch cmd {
	case "mark":
		Mark(arg)
	case "pause":
		Pause()
	case "resume":
		Resume()
	case "info":
	default:
		fmt.Fprintf(c, "error unknown command %q\n", cmd)
		return
	}
	if atomic.LoadInt32(&state) == stateOff {
		fmt.Fprintf(c, "error recording has stopped in this process (see its standard error)\n")
		return
	}
	fmt.Fprintf(c, "ok %d %s %s\n", os.Getpid(), programName(), tracePath)
}
