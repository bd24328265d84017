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
	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/logrt/host"
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
command's own caches, are left alone.

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
		targets = append(targets, cleanTarget{"traces", logrt.DefaultDir()})
		// Before traces were private, they went to suncat-traces, open to
		// all: yours are removed too.
		old := filepath.Join(os.TempDir(), "suncat-traces")
		if fi, err := os.Lstat(old); err == nil && fi.IsDir() && ownedByMe(fi) {
			targets = append(targets, cleanTarget{"traces of an older suncat, readable by all", old})
		}
	}
	if all || *cache {
		targets = append(targets, cleanTarget{"build cache", instrument.CacheDir()})
	}
	var stale []string
	if all {
		// A control folder that is not private is not read; its
		// sockets are not suncat clean's to remove.
		stale, _ = host.StaleSockets()
	}
	var missing []string
	for _, t := range targets {
		files, size, err := dirUsage(t.dir)
		if errors.Is(err, os.ErrNotExist) {
			missing = append(missing, t.dir)
			continue
		}
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%s: %s, %s", t.what, plural(files, "file"), byteSize(size))
		if *dryRun {
			fmt.Fprintf(stdout, "would remove %s (%s)\n", t.dir, desc)
			continue
		}
		if err := removeAll(t.dir); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s (%s)\n", t.dir, desc)
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
		fmt.Fprintf(stdout, "%s %s of programs that are gone in %s\n", verb, plural(removed, "control socket"), logrt.ControlDir())
	}
	if len(missing) == len(targets) && len(stale) == 0 {
		fmt.Fprintf(stdout, "nothing to remove: no %s\n", strings.Join(missing, ", no "))
	}
	return nil
}

// dirUsage counts the regular files under dir and their bytes.
func dirUsage(dir string) (files int, size int64, err error) {
	if _, err := os.Lstat(dir); err != nil {
		return 0, 0, err
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			files++
			size += info.Size()
		}
		return nil
	})
	return files, size, pathError(err)
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
