package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// whileBuilding returns a context that SIGINT or SIGTERM cancels, for the
// time a build runs, and the function that ends it. Without it a ^C kills
// suncat at once and leaves the build's work folder in the cache for
// good; with it the build stops (the go command, in the terminal's process
// group, gets the ^C too), removes its work folder and returns, and
// interrupted reports it. The end function must be called before a
// program or test is run, whose signals are forwarded (runForwarding).
func whileBuilding() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// interrupted returns, if ctx was canceled by a signal, the error that
// says so (exit status 130, as a shell gives a program ended by ^C), after
// one line on stderr; else nil.
func interrupted(ctx context.Context, cmd string, stderr io.Writer) error {
	if ctx.Err() == nil {
		return nil
	}
	fmt.Fprintf(stderr, "suncat: %s: interrupted; the build's work folder was removed\n", cmd)
	return silentError{exitError(130)}
}
