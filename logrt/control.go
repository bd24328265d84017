package logrt

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The control channel lets `suncat mark`, `suncat pause` and `suncat
// resume` reach a running instrumented program without any code of the
// user's and without signals (so it cannot steal one the program handles).
// When a process opens its trace it listens on a unix socket
// <tracefmt.ControlDir>/<pid>.sock, served by a goroutine that waits in the
// runtime's poller (no thread is held). A request is one line,
// "mark <label>", "pause", "resume" or "info"; the reply, sent after the
// record is in the trace, is "ok <pid> <program> <trace path>", or
// "error <what>". Set SUNCAT_CONTROL=off to not listen. The socket is
// made with system calls, not package net, so an instrumented program
// links what it linked before (no cgo resolver, still static if it was).
// Systems without unix sockets in package syscall have no control channel.

// ControlEnv is the environment variable that turns the control channel
// off ("off"; tracefmt.ControlEnv).
const ControlEnv = tracefmt.ControlEnv

func controlSocket(pid int) string {
	return filepath.Join(tracefmt.ControlDir(), fmt.Sprintf("%d.sock", pid))
}

func startControl(tracePath string) {
	if os.Getenv(ControlEnv) == "off" {
		return
	}
	go serveControl(tracePath)
}

// maxRequest bounds a request line: a mark's label is cut at MaxValue
// bytes anyway.
const maxRequest = 4096

// handleControl serves one request read from c and replies on it; got,
// if not nil, is called once the request line is read (or its reading
// failed).
func handleControl(c io.ReadWriter, tracePath string, got func()) {
	b, err := bufio.NewReaderSize(c, maxRequest).ReadSlice('\n')
	if got != nil {
		got()
	}
	if err == bufio.ErrBufferFull {
		fmt.Fprintf(c, "error request line longer than %d bytes\n", maxRequest)
		return
	}
	if err != nil {
		return
	}
	line := strings.TrimRight(string(b), "\r\n")
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
