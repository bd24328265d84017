package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt/host"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

var cleanCmd = &command{
	name:  "clean",
	args:  "[-n] [-traces] [-cache]",
	short: "remove suncat's traces and build cache",
	order: 80,
	long: `
Clean removes what suncat leaves on the machine: the traces that run,
test, delay and instrumented programs write when no -trace or SUNCAT_TRACE
names a place (the directory suncat-traces-<uid> under the temporary
directory, and suncat-traces there, where older versions wrote them, open
to all, if it is yours), and suncat's build cache (the directory suncat under the user's cache
directory, or suncat-cache-<uid> under the temporary directory where there
is none: instrumented binaries, analyses, copies of -deps modules).
With -n it only lists what it would remove, with sizes. -traces or -cache
limits it to one of the two. Traces written elsewhere, and the go
command's own caches, are left alone; so are the traces of programs still
recording (and the folders that hold them), which it lists as kept.

A folder at one of those paths that is a symbolic link or another
user's, or a build cache path that holds anything but what suncat puts
there (analysis, bin, deps, work), is refused with one line and exit
status 1; the others are cleaned all the same.

The control sockets (suncat-ctl-<uid> under the temporary directory) of
instrumented programs that are gone are removed too, those of running
programs are not touched. (A program cannot remove its socket as it
exits; run, test, demo and delay remove their programs' when they end.)

Examples:

	suncat clean -n
	suncat clean
	suncat clean -traces
`,
}

func init() {
	cleanCmd.run = runClean
	register(cleanCmd)
}

// A cleanTarget is a directory that suncat clean removes as a whole.
type cleanTarget struct {
	what, dir string
	cache     bool // suncat's build cache
}

func runClean(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(cleanCmd, stderr)
	dryRun := fs.Bool("n", false, "list what would be removed, with sizes, and remove nothing")
	traces := fs.Bool("traces", false, "remove only the traces")
	cache := fs.Bool("cache", false, "remove only the build cache")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	all := !*traces && !*cache
	var targets []cleanTarget
	if all || *traces {
		targets = append(targets, cleanTarget{what: "traces", dir: tracefmt.DefaultDir()})
		// Before traces were private, they went to suncat-traces, open to
		// all: yours are removed too.
		old := filepath.Join(os.TempDir(), "suncat-traces")
		if fi, err := os.Lstat(old); err == nil && fi.IsDir() && ownedByMe(fi) {
			targets = append(targets, cleanTarget{what: "traces of an older suncat, readable by all", dir: old})
		}
	}
	if all || *cache {
		targets = append(targets, cleanTarget{"build cache", instrument.CacheDir(), true})
	}
	var stale []string
	if all {
		// A control folder that is not private is not read; its
		// sockets are not suncat clean's to remove.
		stale, _ = host.StaleSockets()
	}
	var missing []string
	refused := false
	for _, t := range targets {
		if _, err := os.Lstat(t.dir); errors.Is(err, os.ErrNotExist) {
			missing = append(missing, t.dir)
			continue
		}
		if err := t.check(); err != nil {
			// Not suncat's, or not yours: the others are cleaned.
			fmt.Fprintf(stderr, "suncat: clean: %v\n", err)
			refused = true
			continue
		}
		if err := t.clean(stdout, *dryRun); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		removed := 0
		for _, sock := range stale {
			if *dryRun || os.Remove(sock) == nil {
				removed++
			}
		}
		verb := "removed"
		if *dryRun {
			verb = "would remove"
		}
		fmt.Fprintf(stdout, "%s %s of programs that are gone in %s\n", verb, plural(removed, "control socket"), tracefmt.ControlDir())
	}
	if len(missing) == len(targets) && len(stale) == 0 {
		fmt.Fprintf(stdout, "nothing to remove: no %s\n", strings.Join(missing, ", no "))
	}
	if refused {
		return silentError{exitError(1)}
	}
	return nil
}

// cacheEntries are what suncat's build cache holds (instrument).
var cacheEntries = map[string]bool{"analysis": true, "bin": true, "deps": true, "work": true}

// check returns why t.dir is not suncat clean's to remove: a symbolic
// link, not a directory, another user's; for the build cache, a
// directory holding anything but what suncat puts there (a cache path
// that XDG_CACHE_HOME points at someone's own suncat folder).
func (t cleanTarget) check() error {
	fi, err := os.Lstat(t.dir)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("refusing %s: it is a symbolic link", t.dir)
	case !fi.IsDir():
		return fmt.Errorf("refusing %s: not a directory", t.dir)
	case !ownedByMe(fi):
		return fmt.Errorf("refusing %s: it belongs to another user", t.dir)
	case !t.cache:
		return nil
	}
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return pathError(err)
	}
	for _, e := range entries {
		if !cacheEntries[e.Name()] || !e.IsDir() {
			return fmt.Errorf("refusing %s: it holds %s, which suncat's build cache does not (only analysis, bin, deps and work): not suncat's?", t.dir, e.Name())
		}
	}
	return nil
}

// clean removes t.dir (dryRun: says it would), but for the traces that
// programs still running are writing (host.TraceInUse), which are kept,
// with the directories that hold them.
func (t cleanTarget) clean(stdout io.Writer, dryRun bool) error {
	files, size, live, err := dirUsage(t.dir, !t.cache)
	if err != nil {
		return err
	}
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	desc := fmt.Sprintf("%s: %s, %s", t.what, plural(files, "file"), byteSize(size))
	if len(live) > 0 {
		desc += fmt.Sprintf("; kept %s of programs still running", plural(len(live), "trace"))
	}
	if !dryRun {
		if err := removeAllBut(t.dir, live); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s %s (%s)\n", verb, t.dir, desc)
	for _, p := range live {
		fmt.Fprintf(stdout, "kept %s: its program is still running\n", p)
	}
	return nil
}

// dirUsage counts the regular files under dir that are to be removed, and
// their bytes; with traces, it lists the traces (*.suncat) that programs
// still running are writing, which are not counted.
func dirUsage(dir string, traces bool) (files int, size int64, live []string, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if traces && strings.HasSuffix(path, ".suncat") && host.TraceInUse(path) {
			live = append(live, path)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		size += info.Size()
		return nil
	})
	return files, size, live, pathError(err)
}

// removeAllBut removes dir, but for the files keep and the directories
// that hold them.
func removeAllBut(dir string, keep []string) error {
	if len(keep) == 0 {
		return removeAll(dir)
	}
	held := map[string]bool{}
	for _, p := range keep {
		for d := p; d != dir && len(d) > len(dir); d = filepath.Dir(d) {
			held[d] = true
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return pathError(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case !held[p]:
			err = removeAll(p)
		case e.IsDir():
			err = removeAllBut(p, keep)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// removeAll removes dir, making read-only directories inside it (copies
// of module cache files keep their modes) writable first.
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	return pathError(os.RemoveAll(dir))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
