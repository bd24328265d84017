package host

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Process is a live instrumented process reachable on the control
// channel.
type Process struct {
	PID     int
	Program string
	Trace   string
	socket  string
}

// LiveProcesses lists the instrumented processes that answer on the
// control channel, removing the sockets of processes that are gone.
func LiveProcesses() ([]Process, error) {
	entries, err := os.ReadDir(tracefmt.ControlDir())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// A folder another user made, or opened to others, may hold their
	// sockets: a fake program would get the request and answer "ok".
	if err := tracefmt.CheckPrivateDir(tracefmt.ControlDir()); err != nil {
		return nil, err
	}
	var ps []Process
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".sock") {
			continue
		}
		sock := filepath.Join(tracefmt.ControlDir(), e.Name())
		p, err := request(sock, "info")
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) && gone(e.Name()) {
				os.Remove(sock) // nobody listens and the process is gone
			}
			continue // gone, or too busy to answer now: not listed
		}
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].PID < ps[j].PID })
	return ps, nil
}

// SendControl sends cmd ("mark", "pause" or "resume", with arg as the
// mark's label) to one live process and returns when the record is in its
// trace. target selects the process: "" for the only live one, a pid, or
// the path of its trace file.
func SendControl(target, cmd, arg string) (Process, error) {
	ps, err := LiveProcesses()
	if err != nil {
		return Process{}, err
	}
	var match []Process
	for _, p := range ps {
		if target == "" || target == strconv.Itoa(p.PID) || sameFile(target, p.Trace) {
			match = append(match, p)
		}
	}
	switch {
	case len(match) == 0 && target == "":
		return Process{}, fmt.Errorf("no instrumented program is running (none answers in %s)", tracefmt.ControlDir())
	case len(match) == 0:
		return Process{}, fmt.Errorf("no running instrumented program matches %q; running: %s", target, describe(ps))
	case len(match) > 1:
		return Process{}, fmt.Errorf("%d instrumented programs are running, choose one with -pid: %s", len(match), describe(match))
	}
	line := cmd
	if arg != "" {
		line += " " + arg
	}
	return request(match[0].socket, line)
}

// StaleSockets lists the control sockets left by instrumented processes
// that are gone: a program cannot remove its socket when it returns from
// main, calls os.Exit or is killed. Nobody listens on them and no process
// has their pid. A program that ends between binding its socket and
// naming it leaves <pid>.sock.new, listed too. A control folder that is
// not private is not read.
func StaleSockets() ([]string, error) {
	dir := tracefmt.ControlDir()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := tracefmt.CheckPrivateDir(dir); err != nil {
		return nil, err
	}
	var stale []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".new")
		if !strings.HasSuffix(name, ".sock") || !gone(name) {
			continue
		}
		sock := filepath.Join(dir, e.Name())
		c, err := net.DialTimeout("unix", sock, 2*time.Second)
		if err == nil {
			c.Close()
			continue
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			stale = append(stale, sock)
		}
	}
	return stale, nil
}

// RemoveStaleSockets removes the sockets StaleSockets lists and returns
// how many it removed. Commands that run instrumented programs call it
// when their program has ended.
func RemoveStaleSockets() int {
	stale, _ := StaleSockets()
	n := 0
	for _, sock := range stale {
		if os.Remove(sock) == nil {
			n++
		}
	}
	return n
}

// gone reports whether the process named by a socket ("<pid>.sock") no
// longer exists. A refused connection alone does not say so: a process
// may be between creating its socket and listening on it.
func gone(name string) bool {
	pid, err := strconv.Atoi(strings.TrimSuffix(name, ".sock"))
	if err != nil || pid <= 0 {
		return true
	}
	return processGone(pid)
}

func describe(ps []Process) string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%d (%s)", p.PID, p.Program))
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func request(sock, line string) (Process, error) {
	c, err := net.DialTimeout("unix", sock, 2*time.Second)
	if err != nil {
		return Process{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c, "%s\n", strings.ReplaceAll(line, "\n", " ")); err != nil {
		return Process{}, err
	}
	reply, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return Process{}, fmt.Errorf("control %s: %v", sock, err)
	}
	f := strings.SplitN(strings.TrimRight(reply, "\n"), " ", 4)
	if len(f) < 4 || f[0] != "ok" {
		return Process{}, fmt.Errorf("control %s: %s", sock, strings.TrimSpace(reply))
	}
	pid, _ := strconv.Atoi(f[1])
	return Process{PID: pid, Program: f[2], Trace: f[3], socket: sock}, nil
}
