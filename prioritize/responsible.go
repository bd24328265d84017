package prioritize

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// The responsible frame of a site is the function whose loop makes the
// calls grow: walking the site's stack out from the getter, the first
// frame that
//
//   - is not a method of the getter's own type (a delegating accessor,
//     Name returning Title, is the getter's neighbour, not its loop),
//     nor called back by sort, slices, maps, container/heap or a
//     template (a comparator's or a template function's own loops are
//     per element; the loop that grows is the one that calls them);
//   - and calls on toward the getter from inside a for or range loop of
//     its own function (the outermost such loop; read from the source
//     file, as the frame's file
//     and line give it; a function literal's loops are its own), or
//     calls into a looping package of the standard library (sort,
//     slices, maps, container/heap: the comparator is not the loop, the
//     function that sorts is; text/template and html/template, whose
//     range is the loop), or is recursive (its function appears
//     twice in the whole stack).
//
// Where no frame qualifies (the source is not readable, or the loop is
// outside the stack), it is the frame that sets the site apart from the
// getter's other sites, skipping the getter's own type. The rule reads
// only the stack and the source, so it is the same in every session of
// the same program.

// Why a frame is responsible (Site.Why).
const (
	WhyLoop      = "loop"      // it calls from inside a for or range loop
	WhySort      = "sort"      // it calls into sort, slices, maps, container/heap or a template
	WhyRecursion = "recursion" // its function is recursive
	WhyCaller    = "caller"    // no loop found: the frame that sets the site apart
)

// loopStd are the packages of the standard library whose functions loop
// over what they are given and call back (comparators, predicates).
// A template's range is such a loop: the function that executes the
// template is responsible.
var loopStd = map[string]bool{"sort": true, "slices": true, "container/heap": true, "maps": true,
	"text/template": true, "html/template": true}

// sources caches parsed source files (nil: unreadable), each with the
// file set its positions are in and the modification time it was read at.
type sources struct {
	mu    sync.Mutex
	files map[string]parsed
}

type parsed struct {
	f     *ast.File
	fset  *token.FileSet
	mtime time.Time
}

func newSources() *sources {
	return &sources{files: map[string]parsed{}}
}

// sharedSources is the cache every findings computation uses: suncat
// test fits each test family on its own, over the same files.
var sharedSources = newSources()

// maxSources bounds the files kept; past it the cache starts again.
const maxSources = 4096

func (s *sources) file(path string) (*ast.File, *token.FileSet) {
	var mtime time.Time
	if fi, err := os.Stat(path); err == nil {
		mtime = fi.ModTime()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.files[path]; ok && p.mtime.Equal(mtime) {
		return p.f, p.fset
	}
	if len(s.files) >= maxSources {
		s.files = map[string]parsed{}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		f = nil
	}
	s.files[path] = parsed{f, fset, mtime}
	return f, fset
}

// loopAt returns the line of the outermost for or range statement of
// the innermost function around line that the line is inside of (nested
// loops in one function are one defect, named by the outer loop) (a range's
// body, a for's condition, post statement or body); 0 when none is or the
// file cannot be read.
func (s *sources) loopAt(path string, line int) int {
	f, fset := s.file(path)
	if f == nil || line <= 0 {
		return 0
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	within := func(n ast.Node) bool {
		return n != nil && lineOf(n.Pos()) <= line && line <= lineOf(n.End())
	}
	// The innermost function around the line.
	var fn ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if within(n) {
				fn = n
			}
		}
		return n == nil || within(n)
	})
	if fn == nil {
		return 0
	}
	loop := 0
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || !within(n) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == fn
		case *ast.ForStmt:
			if loop == 0 && (within(n.Cond) || within(n.Post) || within(n.Body)) {
				loop = lineOf(n.Pos())
			}
		case *ast.RangeStmt:
			if loop == 0 && within(n.Body) {
				loop = lineOf(n.Pos())
			}
		}
		return true
	})
	return loop
}

// responsible finds a site's responsible frame: its index in the site's
// Frames, the line of the loop (0 when not a loop) and why.
func (s *sources) responsible(site *Site, whole [][]tracefile.Frame) (int, int, string) {
	fs := site.Frames
	if len(fs) == 0 {
		return 0, 0, WhyCaller
	}
	own := receiverType(fs[0])
	for k := 1; k < len(fs); k++ {
		f := fs[k]
		if own != "" && receiverType(fs[k]) == own {
			continue
		}
		if calledByLoopStd(f, whole) {
			continue // a comparator or a template's function: the caller of sort or the template loops
		}
		if callsLoopStd(f, whole) {
			return k, 0, WhySort
		}
		if recursive(f, whole) {
			return k, 0, WhyRecursion
		}
		if l := s.loopAt(f.File, f.Line); l > 0 {
			return k, l, WhyLoop
		}
	}
	d := site.Distinct
	for d < len(fs)-1 && own != "" && receiverType(fs[d]) == own {
		d++
	}
	if d < 1 && len(fs) > 1 {
		d = 1
	}
	return d, 0, WhyCaller
}

// receiverType is the package-qualified receiver type of the frame's
// function ("example.com/m.Stop" for "example.com/m.(*Stop).Name"), ""
// for a plain function.
func receiverType(f tracefile.Frame) string {
	fn := f.Func
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	pkg := funcPackage(fn)
	rest := strings.TrimPrefix(fn, pkg+".")
	dot := strings.LastIndexByte(rest, '.')
	if dot < 0 {
		return ""
	}
	typ := strings.TrimSuffix(strings.TrimPrefix(rest[:dot], "(*"), ")")
	if typ == "" || strings.ContainsAny(typ, ".") || strings.HasPrefix(rest[dot+1:], "func") {
		return ""
	}
	return pkg + "." + typ
}

// callsLoopStd reports whether, in one of the whole stacks, the frame
// just toward the getter from f is in a looping package of the standard
// library.
func callsLoopStd(f tracefile.Frame, whole [][]tracefile.Frame) bool {
	for _, st := range whole {
		for i := 1; i < len(st); i++ {
			if st[i] == f && isStdFrame(st[i-1]) && loopStd[funcPackage(st[i-1].Func)] {
				return true
			}
		}
	}
	return false
}

// calledByLoopStd reports whether, in one of the whole stacks, f is
// called back by a looping package of the standard library (through
// reflect and the runtime, as a template calls its functions).
func calledByLoopStd(f tracefile.Frame, whole [][]tracefile.Frame) bool {
	for _, st := range whole {
		for i := 0; i+1 < len(st); i++ {
			if st[i] != f {
				continue
			}
			for j := i + 1; j < len(st) && isStdFrame(st[j]); j++ {
				switch pkg := funcPackage(st[j].Func); {
				case loopStd[pkg]:
					return true
				case pkg == "runtime" || pkg == "reflect" || strings.HasPrefix(pkg, "internal/"):
					continue
				}
				break
			}
		}
	}
	return false
}

// recursive reports whether f's function appears twice in one of the
// whole stacks.
func recursive(f tracefile.Frame, whole [][]tracefile.Frame) bool {
	for _, st := range whole {
		n := 0
		for _, g := range st {
			if g.Func == f.Func {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}
