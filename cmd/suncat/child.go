package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/suncat-go/suncat/logrt/host"
)

// The programs suncat runs on the user's behalf (run's program, test's go
// test) go through runForwarding, and their status through statusOf.

// stdinIsTerminal reports whether suncat's standard input is a terminal
// (a variable for tests).
var stdinIsTerminal = func() bool { return term.IsTerminal(os.Stdin.Fd()) }

// runForwarding runs cmd until it ends, passing on the interrupts and
// SIGTERMs sent to suncat, which itself stays, to say where the traces are
// and to remove its work files.
//
// A ^C typed at the terminal already reaches cmd (it is in suncat's process
// group, as it would be without suncat): it is not forwarded, since
// delivering it twice would make many programs quit at once. When standard
// input is not a terminal, the signals are forwarded; with group, cmd runs
// in a process group of its own and they go to the whole group (go test
// alone would wait for test binaries that never heard of them).
func runForwarding(cmd *exec.Cmd, group bool) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	fromTTY := stdinIsTerminal()
	group = group && !fromTTY
	if group {
		ownGroup(cmd)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				switch {
				case group:
					signalGroup(cmd, s)
				case s != os.Interrupt || !fromTTY:
					cmd.Process.Signal(s)
				}
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	// An instrumented program cannot remove its control socket when it
	// exits; the sockets of programs that are gone are removed here.
	host.RemoveStaleSockets()
	return err
}

// statusOf passes on the exit status of a command suncat ran: the same
// status, or, like a shell, 128 + n when signal n ended it. Other errors
// (the command did not start) are returned as they are.
func statusOf(err error) error {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if code := exit.ExitCode(); code > 0 {
			return silentError{exitError(code)}
		}
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return silentError{exitError(128 + int(ws.Signal()))}
		}
		return silentError{exitError(1)}
	}
	return err
}
