//go:build ignore

// Command gogitdrive runs one go-git v5.19.3 workload of size N and
// checks its result (doc/cases/gogit-reads.md).
//
//	gogitdrive add N        in memory: N new files, Worktree.Add of each, one by one, then one commit
//	gogitdrive addskip N    the same with AddWithOptions{SkipStatus: true}
//	gogitdrive mk DIR N     on disk: a repository of N commits, commit i adds fI.txt and appends a line to log.txt
//	gogitdrive log DIR      Log from HEAD, iterating every commit
//	gogitdrive log100 DIR   Log from HEAD, the first 100 commits only (the flat control)
//	gogitdrive blame DIR    git.Blame of log.txt at HEAD (changed in every commit)
//	gogitdrive status DIR   Worktree.Status of the checked-out repository
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

func sig(i int) *object.Signature {
	return &object.Signature{Name: "A U Thor", Email: "a@example.com",
		When: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gogitdrive:", err)
		os.Exit(1)
	}
}

func name(i int) string { return fmt.Sprintf("f%05d.txt", i) }

func add(n int, skip bool) {
	fs := memfs.New()
	r, err := git.Init(memory.NewStorage(), fs)
	must(err)
	w, err := r.Worktree()
	must(err)
	for i := 0; i < n; i++ {
		f, err := fs.Create(name(i))
		must(err)
		fmt.Fprintf(f, "file %d\n", i)
		must(f.Close())
	}
	for i := 0; i < n; i++ {
		if skip {
			must(w.AddWithOptions(&git.AddOptions{Path: name(i), SkipStatus: true}))
		} else {
			_, err := w.Add(name(i))
			must(err)
		}
	}
	h, err := w.Commit("add", &git.CommitOptions{Author: sig(0)})
	must(err)
	c, err := r.CommitObject(h)
	must(err)
	t, err := c.Tree()
	must(err)
	if len(t.Entries) != n {
		must(fmt.Errorf("tree has %d entries, want %d", len(t.Entries), n))
	}
	fmt.Printf("added %d files, commit %s\n", n, h.String()[:8])
}

func mk(dir string, n int) {
	r, err := git.PlainInit(dir, false)
	must(err)
	w, err := r.Worktree()
	must(err)
	var log strings.Builder
	for i := 0; i < n; i++ {
		must(os.WriteFile(filepath.Join(dir, name(i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644))
		fmt.Fprintf(&log, "line %d\n", i)
		must(os.WriteFile(filepath.Join(dir, "log.txt"), []byte(log.String()), 0o644))
		must(w.AddWithOptions(&git.AddOptions{Path: name(i), SkipStatus: true}))
		must(w.AddWithOptions(&git.AddOptions{Path: "log.txt", SkipStatus: true}))
		_, err := w.Commit(fmt.Sprintf("commit %d", i), &git.CommitOptions{Author: sig(i)})
		must(err)
	}
	fmt.Printf("made %s: %d commits\n", dir, n)
}

var errStop = errors.New("stop")

func logN(dir string, limit int) {
	r, err := git.PlainOpen(dir)
	must(err)
	head, err := r.Head()
	must(err)
	it, err := r.Log(&git.LogOptions{From: head.Hash()})
	must(err)
	k, files := 0, 0
	err = it.ForEach(func(c *object.Commit) error {
		if limit > 0 && k == limit {
			return errStop
		}
		k++
		files += len(c.Message)
		return nil
	})
	if err != errStop {
		must(err)
	}
	fmt.Printf("log: %d commits (%d message bytes)\n", k, files)
}

func blame(dir string) {
	r, err := git.PlainOpen(dir)
	must(err)
	head, err := r.Head()
	must(err)
	c, err := r.CommitObject(head.Hash())
	must(err)
	b, err := git.Blame(c, "log.txt")
	must(err)
	for i, l := range b.Lines {
		if l.Text != fmt.Sprintf("line %d", i) || !l.Date.Equal(sig(i).When) {
			must(fmt.Errorf("line %d: %q at %v", i, l.Text, l.Date))
		}
	}
	fmt.Printf("blame: %d lines\n", len(b.Lines))
}

func status(dir string) {
	r, err := git.PlainOpen(dir)
	must(err)
	w, err := r.Worktree()
	must(err)
	s, err := w.Status()
	must(err)
	fmt.Printf("status: clean %v, %d entries\n", s.IsClean(), len(s))
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: gogitdrive add|addskip N | mk DIR N | log|log100|blame|status DIR")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "add", "addskip":
		n, err := strconv.Atoi(os.Args[2])
		must(err)
		add(n, os.Args[1] == "addskip")
	case "mk":
		n, err := strconv.Atoi(os.Args[3])
		must(err)
		mk(os.Args[2], n)
	case "log":
		logN(os.Args[2], 0)
	case "log100":
		logN(os.Args[2], 100)
	case "blame":
		blame(os.Args[2])
	case "status":
		status(os.Args[2])
	default:
		must(fmt.Errorf("unknown mode %q", os.Args[1]))
	}
}
