package prioritize

import (
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// Stacks modes of Options.Stacks: how a terminal's stack becomes the
// stack of its call site.
const (
	StacksFolded = "folded" // the default: recursion folded, the standard library's frames left out
	StacksWhole  = "whole"  // every frame, as the terminals have them
)

// FoldStack returns the stack that names a call site: the getter's frame,
// then each function's frame nearest to the getter only (so recursion,
// direct or mutual, folds to one frame per function at any depth), and no
// frames of the Go standard library other than the getter's own (sort's
// internal recursion, fmt, testing, net/http's server loop). Calls from
// one place in your code thus share a site however deep the recursion
// above or below it and whichever way sort reached a comparator.
func FoldStack(fs []tracefile.Frame) []tracefile.Frame {
	if len(fs) == 0 {
		return nil
	}
	return foldStack(nil, map[string]bool{}, fs)
}

// foldStack appends FoldStack(fs) to out, fs not empty, with seen (emptied
// first) as its scratch space: findSites folds every terminal's stack and
// keeps the folded stack of each distinct site only.
func foldStack(out []tracefile.Frame, seen map[string]bool, fs []tracefile.Frame) []tracefile.Frame {
	clear(seen)
	out = append(out, fs[0])
	seen[fs[0].Func] = true
	for _, f := range fs[1:] {
		if seen[f.Func] || isStdFrame(f) {
			continue
		}
		seen[f.Func] = true
		out = append(out, f)
	}
	return out
}

// hookedCall reports whether g is a call recorded inside the standard
// library (suncat instrument -calls sql or http), whoever made it.
func hookedCall(g tracefile.Getter) bool {
	return g.HookedCall()
}

// userFrames leaves out of a folded stack of a hooked call the frames of
// dependencies (files in the module cache or a vendor directory, see
// depFrame): the ORM or client library between the program and
// database/sql or net/http. The site is then named by the program's own code that made
// the query, however the library reached it. A stack of library frames
// only is kept as it is.
func userFrames(fs []tracefile.Frame) []tracefile.Frame {
	if len(fs) == 0 {
		return fs
	}
	out := []tracefile.Frame{fs[0]}
	for _, f := range fs[1:] {
		if depFrame(f) {
			continue
		}
		out = append(out, f)
	}
	if len(out) == 1 {
		return fs
	}
	return out
}

// depFrame reports whether a frame is in a dependency's file: one in a
// module cache, whose directory is the package's import path with
// "@version" after the module's part (GOMODCACHE/gorm.io/gorm@v1.31.2/
// callbacks, wherever GOMODCACHE is, or gorm.io/gorm@v1.31.2/callbacks
// with -trimpath), or one in a vendor directory (vendor/ and the import
// path). The frame's package is read from its function's name, so the
// main module keeps its frames wherever it is, even copied out of the
// module cache into a directory named like one (/tmp/app@v1.2.3: its
// directory does not end with its import path), and so does package
// main.
func depFrame(f tracefile.Frame) bool {
	pkg := funcPackage(f.Func)
	if pkg == "" || pkg == "main" {
		return false
	}
	pkg = unescapeSymbol(pkg)
	dir := path.Dir(filepath.ToSlash(f.File))
	if strings.HasSuffix(dir, "/vendor/"+pkg) {
		return true
	}
	at := strings.LastIndexByte(dir, '@')
	if at < 0 {
		return false
	}
	rest := dir[at:]
	end := strings.IndexByte(rest, '/')
	if end < 0 {
		end = len(rest)
	}
	if !strings.HasPrefix(rest, "@v") {
		return false
	}
	// The module cache spells an upper-case letter of a module path as
	// '!' and the lower-case letter: compare without either.
	mod := strings.ToLower(strings.ReplaceAll(dir[:at], "!", ""))
	dir = mod + strings.ToLower(strings.ReplaceAll(rest[end:], "!", ""))
	pkg = strings.ToLower(pkg)
	return dir == pkg || strings.HasSuffix(dir, "/"+pkg) || inModule(pkg, mod)
}

// inModule reports whether package pkg lies in the module whose
// directory in a module cache, without its version, is mod (its import
// path is a suffix of mod): a function of one of the module's packages
// inlined into another's file (chroma's lexers.goRules.UsingLexer.func1,
// in chroma's emitters.go) is the module's code too.
func inModule(pkg, mod string) bool {
	for i := 0; i < len(mod); i++ {
		if (i == 0 || mod[i-1] == '/') && strings.Contains(mod[i:], ".") && strings.HasPrefix(pkg, mod[i:]+"/") {
			return true
		}
	}
	return false
}

// unescapeSymbol undoes the escapes of an import path in a symbol name:
// the linker spells '.' in the path's last element, and a few other
// bytes, as %xx ("gopkg.in/yaml%2ev3").
func unescapeSymbol(pkg string) string {
	if !strings.Contains(pkg, "%") {
		return pkg
	}
	var b strings.Builder
	for i := 0; i < len(pkg); i++ {
		if pkg[i] == '%' && i+2 < len(pkg) {
			if v, err := strconv.ParseUint(pkg[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(pkg[i])
	}
	return b.String()
}

// isStdFrame reports whether a frame is in a package of the Go standard
// library: its import path has no dot in its first element, it is not
// package main, and its file is in GOROOT's src directory under that path
// (a module named without a dot, "myapp/util", is not in .../src/myapp/util).
func isStdFrame(f tracefile.Frame) bool {
	pkg := funcPackage(f.Func)
	if pkg == "" || pkg == "main" {
		return false
	}
	first, _, _ := strings.Cut(pkg, "/")
	if strings.Contains(first, ".") {
		return false
	}
	dir := filepath.ToSlash(filepath.Dir(f.File))
	return strings.HasSuffix(dir, "/src/"+pkg)
}

// funcPackage returns the import path of a runtime function name:
// "sort" for "sort.insertionSort_func", "example.com/app/model" for
// "example.com/app/model.(*Stop).Name", ignoring type arguments.
func funcPackage(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// distinguishing returns, for each stack of one getter's sites, the index
// of the frame that sets it apart from the others: one past the longest
// run of frames (from the getter) that it shares with any other. A site
// alone, or one whose stack is all shared, is named by its caller (index
// 1) or, at worst, its last frame. The longest run a stack shares with
// any other is the one it shares with a neighbour in the stacks' sorted
// order, so a getter read at thousands of sites costs n log n.
func distinguishing(stacks [][]tracefile.Frame) []int {
	order := make([]int, len(stacks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return lessFrames(stacks[order[i]], stacks[order[j]]) })
	shared := make([]int, len(stacks))
	for k := 1; k < len(order); k++ {
		i, j := order[k-1], order[k]
		n := commonPrefix(stacks[i], stacks[j])
		shared[i], shared[j] = max(shared[i], n), max(shared[j], n)
	}
	out := make([]int, len(stacks))
	for i, a := range stacks {
		d := max(shared[i], 1)
		d = min(d, len(a)-1)
		out[i] = max(d, 0)
	}
	return out
}

// lessFrames orders stacks frame by frame from the getter's, a stack
// before those it is a prefix of.
func lessFrames(a, b []tracefile.Frame) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if x, y := a[k], b[k]; x != y {
			if x.Func != y.Func {
				return x.Func < y.Func
			}
			if x.File != y.File {
				return x.File < y.File
			}
			return x.Line < y.Line
		}
	}
	return len(a) < len(b)
}

func commonPrefix(a, b []tracefile.Frame) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// FrameString prints a frame as the summary does: package-qualified
// function and file:line, "model.(*ViewState).visit (state.go:53)".
func FrameString(f tracefile.Frame) string {
	return shortFunc(f.Func) + " (" + filepath.Base(f.File) + ":" + strconv.Itoa(f.Line) + ")"
}

// mergeCut counts each site whose calls all had stacks cut at the
// writer's depth limit in the site its frames begin, and returns the
// sites left. A stack as deep as a recursion over the input is cut once
// the input is large enough: folded (foldStack), it keeps the frames
// nearest the call and lacks the outer ones, so the calls of one loop
// made two sites, the small sizes' and the large ones', neither growing
// (doc/cases/pocketbase-back-relation-expand-n-1-split-by-cut-stacks.md).
// The folded frames of a cut stack begin those of the whole one: a cut
// site goes to the one uncut site of its getter whose frames its frames
// begin, else to the one cut site that does, the longest cut sites
// first. Where several could own its calls (the recursion reached from
// two callers), the cut stacks cannot say which: those sites are counted
// in it instead, under the frames they share. Left apart, its counts
// grew with the stacks' depth (cut at the large sizes only) and theirs
// lost their largest sizes: a loop linear in all was read as log.
func mergeCut(sites []*Site) []*Site {
	var cut []*Site
	for _, s := range sites {
		if s.Total > 0 && s.Cut == s.Total {
			cut = append(cut, s)
		}
	}
	if len(cut) == 0 {
		return sites
	}
	slices.SortStableFunc(cut, func(a, b *Site) int { return len(b.Frames) - len(a.Frames) })
	byGetter := map[tracefile.Getter][]*Site{} // a -reads summary has tens of thousands of sites
	for _, s := range sites {
		byGetter[s.Getter] = append(byGetter[s.Getter], s)
	}
	gone := map[*Site]bool{}
	for _, c := range cut {
		if gone[c] {
			continue
		}
		homes := cutHomes(byGetter[c.Getter], c, gone)
		if len(homes) == 1 {
			homes[0].absorb(c)
			gone[c] = true
			continue
		}
		for _, h := range homes {
			c.absorb(h)
			gone[h] = true
		}
	}
	return slices.DeleteFunc(sites, func(s *Site) bool { return gone[s] })
}

// cutHomes returns the sites, of c's getter, that could own cut site c's
// calls (mergeCut): those whose folded frames its frames begin, the
// uncut ones if there are any.
func cutHomes(sites []*Site, c *Site, gone map[*Site]bool) []*Site {
	var uncut, cut []*Site
	for _, s := range sites {
		if s == c || gone[s] || s.Name != c.Name || !beginsWith(s.Frames, c.Frames) {
			continue
		}
		if s.Cut == s.Total {
			cut = append(cut, s)
		} else {
			uncut = append(uncut, s)
		}
	}
	if len(uncut) > 0 {
		return uncut
	}
	return cut
}

// beginsWith reports whether the folded stack fs is longer than head
// and begins with it, the first frame's line left out (siteKey).
func beginsWith(fs, head []tracefile.Frame) bool {
	if len(head) == 0 || len(fs) <= len(head) || fs[0].Func != head[0].Func || fs[0].File != head[0].File {
		return false
	}
	return commonPrefix(fs[1:], head[1:]) == len(head)-1
}

// absorb adds the calls, terminals and values of site c to s.
func (s *Site) absorb(c *Site) {
	for i, n := range c.Counts {
		s.Counts[i] += n
	}
	s.Total += c.Total
	s.Cut += c.Cut
	s.Terminals = append(s.Terminals, c.Terminals...)
	s.whole = append(s.whole, c.whole...)
	for _, n := range c.folded {
		s.addFolded(n)
	}
	vs := make([]string, 0, len(c.values))
	for v := range c.values {
		vs = append(vs, v)
	}
	sort.Strings(vs) // values tied for the most repeated: the same one each time
	for _, v := range vs {
		s.addValue(ValueCount{Value: v, Count: c.values[v]})
	}
}
