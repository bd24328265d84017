package prioritize

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// The responsible frame of a site is the function whose loop makes the
// calls grow: walking the site's stack out from the getter, the first
// frame that
//
//   - is not a method of the getter's own type that calls on from outside
//     any loop (a delegating accessor, Name returning Title, is the
//     getter's neighbour, not its loop; a parser's method looping over its
//     tokens is the loop; a field read's reader is not skipped so: its
//     loop is the work),
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
//     twice in the whole stack), or calls into a dependency whose loop
//     calls back into the program (WhyDep; a dependency's own frames are
//     never responsible while a frame of the program lies further out).
//
// With none, a goroutine the program started is named by its function
// (WhyGoroutine).
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
	// WhyDep: it calls into a dependency whose loop calls back into the
	// program (an HTML library's Each calling a callback per link);
	// Site.Loops names the dependency's function.
	WhyDep = "dependency"
	// WhyGoroutine: no loop on the stack, which is a goroutine's that the
	// program started (one per item): it is the goroutine's function.
	WhyGoroutine = "goroutine"
)

// loopStd are the packages of the standard library whose functions loop
// over what they are given and call back (comparators, predicates).
// A template's range is such a loop: the function that executes the
// template is responsible.
var loopStd = map[string]bool{"sort": true, "slices": true, "container/heap": true, "maps": true,
	"text/template": true, "html/template": true}

// sources caches parsed source files (nil: unreadable), each with the
// file set its positions are in and the loops found in it (loopAt),
// since the sites of a -reads trace ask about the same frames thousands
// of times. It reads files only through read, its caller's (Sources).
type sources struct {
	read  func(path string) ([]byte, error) // nil: no file is read
	mu    sync.Mutex
	files map[string]*parsed
}

type parsed struct {
	f     *ast.File // nil when the file cannot be read or parsed
	fset  *token.FileSet
	loops map[frameAt]int
	depth map[frameAt]int // loopDepth's answers
	bare  map[int]bool    // bareFor's answers, by line
	clock map[frameAt]int // clockLoop's answers
}

type frameAt struct {
	line     int
	funcName string
}

// maxSources bounds the files kept; past it the cache starts again.
const maxSources = 4096

// file returns the file at path, parsed, read once through s.read.
func (s *sources) file(path string) *parsed {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.files[path]; ok {
		return p
	}
	if len(s.files) >= maxSources || s.files == nil {
		s.files = map[string]*parsed{}
	}
	p := &parsed{loops: map[frameAt]int{}, depth: map[frameAt]int{}, bare: map[int]bool{}, clock: map[frameAt]int{}}
	if s.read != nil {
		if src, err := s.read(path); err == nil {
			fset := token.NewFileSet()
			if f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution); err == nil {
				p.f, p.fset = f, fset
			}
		}
	}
	s.files[path] = p
	return p
}

// loopAt is findLoop of the file at path, remembered.
func (s *sources) loopAt(path string, line int, funcName string) int {
	return s.remembered(path, line, funcName, func(p *parsed) map[frameAt]int { return p.loops }, findLoop)
}

// remembered is find's answer for the frame funcName at line of the file
// at path, kept in the file's table; 0 when the file cannot be read.
func (s *sources) remembered(path string, line int, funcName string, table func(*parsed) map[frameAt]int,
	find func(f *ast.File, fset *token.FileSet, line int, funcName string) int) int {
	p := s.file(path)
	if p.f == nil || line <= 0 {
		return 0
	}
	k := frameAt{line, funcName}
	s.mu.Lock()
	v, ok := table(p)[k]
	s.mu.Unlock()
	if !ok {
		v = find(p.f, p.fset, line, funcName)
		s.mu.Lock()
		table(p)[k] = v
		s.mu.Unlock()
	}
	return v
}

// findLoop returns the line of the outermost for or range statement of
// the frame's function, funcName at line, that the line is inside of
// (nested loops in one function are one defect, named by the outer
// loop) (a range's body below its header, a for's condition, post
// statement or body); 0
// when none is or the file cannot be read. The frame's function is the
// function around the line that is as deep in function literals as its
// name says (closureDepth): a call whose argument is a function literal
// starting on the same line is made by the outer function, not by the
// literal.
func findLoop(f *ast.File, fset *token.FileSet, line int, funcName string) int {
	if in := loopsInside(f, fset, line, funcName); len(in) > 0 {
		return in[0]
	}
	return 0
}

// loopsInside returns the lines of the for and range statements of the
// frame's function, funcName at line, that the line is inside of,
// outermost first (findLoop).
func loopsInside(f *ast.File, fset *token.FileSet, line int, funcName string) []int {
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	within := func(n ast.Node) bool {
		return n != nil && lineOf(n.Pos()) <= line && line <= lineOf(n.End())
	}
	var in []int
	for _, n := range loopsAround(f, fset, line, funcName) {
		switch n := n.(type) {
		case *ast.ForStmt:
			if within(n.Cond) || within(n.Post) || within(n.Body) {
				in = append(in, lineOf(n.Pos()))
			}
		case *ast.RangeStmt:
			// The range expression is evaluated once: a call on the
			// header's line is inside the loop only when the whole
			// loop is on that line.
			header := lineOf(n.Body.Lbrace) == line && lineOf(n.Body.Rbrace) != line
			if within(n.Body) && !header {
				in = append(in, lineOf(n.Pos()))
			}
		}
	}
	return in
}

// loopDepth returns how many loops of the frame's function, funcName at
// line of the file at path, the line is inside of (findLoop's rules).
func (s *sources) loopDepth(path string, line int, funcName string) int {
	return s.remembered(path, line, funcName, func(p *parsed) map[frameAt]int { return p.depth },
		func(f *ast.File, fset *token.FileSet, line int, funcName string) int {
			return len(loopsInside(f, fset, line, funcName))
		})
}

// loopsAround returns the for and range statements of the frame's
// function (funcName at line, frameFunc) that span the line, outermost
// first; not those of function literals inside it.
func loopsAround(f *ast.File, fset *token.FileSet, line int, funcName string) []ast.Stmt {
	fn := frameFunc(f, fset, line, funcName)
	if fn == nil {
		return nil
	}
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	var loops []ast.Stmt
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || lineOf(n.Pos()) > line || line > lineOf(n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == fn
		case *ast.ForStmt:
			loops = append(loops, n)
		case *ast.RangeStmt:
			loops = append(loops, n)
		}
		return true
	})
	return loops
}

// frameFunc returns the function of a frame, funcName at line: the
// function declaration or literal around the line that is as deep in
// function literals as its name says (closureDepth); nil when none is.
func frameFunc(f *ast.File, fset *token.FileSet, line int, funcName string) ast.Node {
	lineOf := func(p token.Pos) int { return fset.Position(p).Line }
	within := func(n ast.Node) bool {
		return n != nil && lineOf(n.Pos()) <= line && line <= lineOf(n.End())
	}
	// The functions around the line, outermost first.
	var around []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if within(n) {
				around = append(around, n)
			}
		}
		return n == nil || within(n)
	})
	if len(around) == 0 {
		return nil
	}
	i := closureDepth(funcName)
	if _, ok := around[0].(*ast.FuncDecl); !ok {
		i-- // a literal in a package-level declaration
	}
	if i < 0 || i >= len(around) {
		i = len(around) - 1
	}
	return around[i]
}

// closureDepth returns how many function literals deep a function is,
// from its name as the runtime gives it: main.main is 0, main.main.func1
// is 1, main.main.func1.2 is 2 (a range-over-func body, F-range1, is a
// loop body of F, not a literal).
func closureDepth(name string) int {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	d := 0
	for _, part := range strings.Split(name, ".") {
		if j := strings.IndexByte(part, '-'); j >= 0 {
			part = part[:j]
		}
		if isClosureName(part) {
			d++
		}
	}
	return d
}

// isClosureName says whether a part of a function's name is a function
// literal's: func3, or a digit string for one nested in another.
func isClosureName(part string) bool {
	part = strings.TrimPrefix(part, "func")
	if part == "" {
		return false
	}
	for _, c := range part {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// A candidate is a frame of a site's stack that may be responsible: its
// index in the site's Frames, the line of its loop (0 when not a loop)
// and why.
type candidate struct {
	k, loop int
	why     string
	dep     string // WhyDep: the dependency's looping function
	bare    bool   // WhyLoop: a for loop without a condition, init or post (for { ... })
	// line is, for a recursion through a loop (recursionLoop), the line
	// where the outer activations call on from inside it; 0: the frame's
	// own line.
	line int
	// nested: WhyLoop, and the frame's line is inside another loop of
	// the function within loop, so the site's calls are not the loop's
	// turns (calibration).
	nested bool
}

// candidates lists the frames of a site that qualify as responsible,
// innermost first.
func (s *sources) candidates(site *Site, whole [][]tracefile.Frame, deep map[string]int, deps depMemo) []candidate {
	fs := site.Frames
	if len(fs) == 0 {
		return nil
	}
	// A getter's own type's methods are its neighbours (Label returning
	// Title); a field read's or a call's first frame is the field or the
	// function, and a method of the field's type that reads it in a loop
	// (a model's View over its matches) is the loop, not a neighbour.
	// A read's or a call's first frame is named after the field or the
	// function (recorderFrame), not after the code that made it: only a
	// getter's own frame says whose code the site is in (own0).
	own, own0 := "", 1
	if site.Getter.EventKind() == tracefmt.KindGetter {
		own, own0 = receiverType(fs[0]), 0
	}
	var out []candidate
	for k := 1; k < len(fs); k++ {
		f := fs[k]
		dep, loop, line := "", 0, 0
		switch {
		case own != "" && receiverType(f) == own && s.loopAt(f.File, f.Line, f.Func) == 0:
			// the getter's neighbour; one that calls it from a loop
			// (a parser's loop over its tokens) is a loop as any other
		case deps.is(f) && deps.programBeyond(fs[k+1:]) && deps.programBeyond(fs[own0:k]):
			// a dependency's frame on the way from the program's
			// code to the program's again (a callback, a getter): the
			// program's frame nearest its loop is named, never the
			// library's. Where the events are the dependency's own
			// (its fields, read under -deps), its loops are named.
		case func() bool { dep = s.callsBackLoop(f, whole, deps); return dep != "" }():
			out = append(out, candidate{k: k, why: WhyDep, dep: dep})
		case calledByLoopStd(f, whole):
			// a comparator or a template's function: the caller of sort
			// or of the template loops
		case callsLoopStd(f, whole):
			out = append(out, candidate{k: k, why: WhySort})
		case deep[f.Func] == 2 && func() bool { loop, line = s.recursionLoop(f, whole); return loop > 0 }():
			// a recursion one level deep through a loop (recursionLoop),
			// whether or not its depth varies: a function that calls
			// itself once from its loop (kong's checkEnum on each element
			// of a slice) is that loop, as it would be if the element's
			// case were a function of its own
			out = append(out, candidate{k: k, loop: loop, why: WhyLoop, bare: s.bareFor(f.File, loop), line: line})
		case recursive(f, whole):
			// The loop around the call, if any: the same loop's
			// outermost activation is found by its loop (WhyLoop), and
			// the two are one finding (defectKey).
			out = append(out, candidate{k: k, loop: s.loopAt(f.File, f.Line, f.Func), why: WhyRecursion})
		default:
			if l := s.loopAt(f.File, f.Line, f.Func); l > 0 {
				out = append(out, candidate{k: k, loop: l, why: WhyLoop, bare: s.bareFor(f.File, l), nested: s.loopDepth(f.File, f.Line, f.Func) > 1})
			}
		}
	}
	if len(out) == 0 {
		if k := goroutineFrame(fs, whole); k > 0 {
			out = append(out, candidate{k: k, why: WhyGoroutine})
		}
	}
	return out
}

// programBeyond reports whether one of the frames is the program's (not
// the standard library's, not a dependency's).
func (deps depMemo) programBeyond(fs []tracefile.Frame) bool {
	for _, f := range fs {
		if !isStdFrame(f) && !deps.is(f) {
			return true
		}
	}
	return false
}

// A depMemo remembers which frames of one set of sites (findSites) are a
// dependency's: the responsible frames' search asks it of every frame of
// every whole stack, and depFrame cleans paths and folds case (half a
// summary's time on go-yaml's deep stacks). It also knows the
// dependencies' directories, from the frames depFrame names (dirs): a
// closure in one of them is the dependency's code, whatever function it
// is named after (a dependency's function inlined into the program's
// makes its closure main.main.Using.func1, in the dependency's file:
// chroma's lexers, doc/cases/chroma-reads.md).
type depMemo struct {
	frames map[fileFunc]bool
	dirs   map[string]bool
}

type fileFunc struct{ file, fn string }

// newDepMemo is the depMemo of sites, their directories found from their
// stacks, whole when they have them.
func newDepMemo(sites []*Site) depMemo {
	deps := depMemo{frames: map[fileFunc]bool{}, dirs: map[string]bool{}}
	note := func(fs []tracefile.Frame) {
		for _, f := range fs {
			if strings.IndexByte(f.File, '@') >= 0 || strings.Contains(f.File, "/vendor/") {
				if depFrame(f) {
					deps.dirs[path.Dir(f.File)] = true
				}
			}
		}
	}
	for _, s := range sites {
		note(s.Frames)
		for _, st := range s.whole {
			note(st)
		}
	}
	return deps
}

func (deps depMemo) is(f tracefile.Frame) bool {
	k := fileFunc{f.File, f.Func}
	dep, ok := deps.frames[k]
	if !ok {
		dep = depFrame(f) || inlinedClosure(f.Func) && deps.dirs[path.Dir(f.File)]
		deps.frames[k] = dep
	}
	return dep
}

// inlinedClosure reports whether fn names a closure made by a function
// inlined into another: pkg.outer.Inlined.func1, some part between the
// outer function and the closure's not a closure's own (func3, or the
// number of one nested in another).
func inlinedClosure(fn string) bool {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	parts := strings.Split(fn[strings.LastIndexByte(fn, '/')+1:], ".")
	if len(parts) < 4 || !isClosureName(parts[len(parts)-1]) {
		return false
	}
	for _, p := range parts[2 : len(parts)-1] {
		if !isClosureName(p) && !strings.HasPrefix(p, "(") {
			return true
		}
	}
	return false
}

// callsBackLoop returns the function of a dependency that f calls into
// and whose loop calls back into the program (f calls goquery's Each,
// whose range over the nodes calls f's callback): in one of the whole
// stacks, the frames just toward the getter from f are a dependency's
// (and the standard library's), one of them inside a loop, up to a frame
// of the program's again. "" when there is none.
func (s *sources) callsBackLoop(f tracefile.Frame, whole [][]tracefile.Frame, deps depMemo) string {
	var r runsBelow
	for _, st := range whole {
		fresh := true
		for i := 1; i < len(st); i++ {
			if st[i] != f || !deps.is(st[i-1]) {
				continue
			}
			if fresh {
				r.reset(len(st))
				fresh = false
			}
			if loops, stop := r.below(s, deps, st, i-1); loops != "" && stop >= 1 {
				return loops
			}
		}
	}
	return ""
}

// runsBelow remembers, for the frames of one stack, what callsBackLoop
// finds below each: going toward the getter from frame j while the
// frames are a dependency's or the standard library's, the first
// dependency frame inside a loop (loops) and the index where that run
// of frames stops (stop). A recursion through a dependency (go-yaml's
// parser, instrumented with -deps) has f in its stacks at every level,
// over runs as deep as the stack: each frame is looked at once.
type runsBelow struct {
	known []bool
	loops []string
	stop  []int
	todo  []int
}

func (r *runsBelow) reset(n int) {
	if cap(r.known) < n {
		r.known, r.loops, r.stop = make([]bool, n), make([]string, n), make([]int, n)
	}
	r.known, r.loops, r.stop = r.known[:n], r.loops[:n], r.stop[:n]
	clear(r.known)
}

// below is the run from frame j of st toward the getter.
func (r *runsBelow) below(s *sources, deps depMemo, st []tracefile.Frame, j int) (loops string, stop int) {
	r.todo = r.todo[:0]
	k := j
	for ; k >= 1 && !r.known[k] && (deps.is(st[k]) || isStdFrame(st[k])); k-- {
		r.todo = append(r.todo, k)
	}
	if k >= 1 && r.known[k] {
		loops, stop = r.loops[k], r.stop[k]
	} else {
		stop = k // a frame of the program's, or past the last
	}
	for t := len(r.todo) - 1; t >= 0; t-- {
		g := st[r.todo[t]]
		if deps.is(g) && s.loopAt(g.File, g.Line, g.Func) > 0 {
			loops = g.Func
		}
		r.known[r.todo[t]], r.loops[r.todo[t]], r.stop[r.todo[t]] = true, loops, stop
	}
	return loops, stop
}

// goroutineFrame returns the index in fs of the function of the
// goroutine the site's calls were made on, when the program started it
// (go f(item), or through a dependency such as errgroup): the outermost
// frame of the program's in a whole stack (down to runtime.goexit, so
// not truncated) whose goroutine did not start
// in main.main, the standard library (testing.tRunner, an HTTP server's
// connection) or the runtime; 0 when there is none.
func goroutineFrame(fs []tracefile.Frame, whole [][]tracefile.Frame) int {
	for _, st := range whole {
		if len(st) == 0 || st[len(st)-1].Func != "runtime.goexit" {
			continue // a truncated stack, or not a goroutine's whole stack
		}
		entry := -1
		for i := len(st) - 1; i >= 0; i-- {
			if !strings.HasPrefix(st[i].Func, "runtime.") {
				entry = i
				break
			}
		}
		if entry < 1 || st[entry].Func == "main.main" || isStdFrame(st[entry]) {
			continue
		}
		for i := entry; i >= 1; i-- {
			if isStdFrame(st[i]) || depFrame(st[i]) {
				continue
			}
			for k := 1; k < len(fs); k++ {
				if fs[k] == st[i] {
					return k
				}
			}
			break
		}
	}
	return 0
}

// responsible sets a site's responsible frame to its first candidate,
// or, with none, to the frame that sets it apart from the getter's other
// sites, past the getter's own type.
func (site *Site) setResponsible() {
	if len(site.cands) > 0 {
		site.use(site.cands[0])
		return
	}
	fs := site.Frames
	d := site.Distinct
	if len(fs) > 0 {
		own := receiverType(fs[0])
		for d < len(fs)-1 && own != "" && receiverType(fs[d]) == own {
			d++
		}
	}
	if d < 1 && len(fs) > 1 {
		d = 1
	}
	site.Responsible, site.LoopLine, site.Why, site.callLine = d, 0, WhyCaller, 0
}

// use makes c the site's responsible frame.
func (site *Site) use(c candidate) {
	site.Responsible, site.LoopLine, site.Why, site.Loops = c.k, c.loop, c.why, shortFunc(c.dep)
	site.callLine = c.line
	if c.dep == "" {
		site.Loops = ""
	}
}

// refineResponsible moves a growing site's responsible frame out to its
// next candidate while the counts say that the loop of the current one
// does not grow: another site (the calibration) calls a getter from
// inside the next candidate's loop directly, reached by the same frames
// further out, and the two sites' counts keep the same ratio across the
// sizes (three titles per record: the fixed loop goes round three times
// for each turn of the one that grows). Without such a site, nothing
// moves: a stack cannot say how often a loop went round. A site that
// left a loop so also takes out of it, in passes until none moves, the
// other sites through that loop with the same frames further out that
// it outnumbers at every size (moveOut): a read made in the loop only
// now and then (a buffer refilled when a word crosses it), whose own
// ratio to the calibration shifts, is not left a finding of its own. A
// site with more calls than the one that left stays: it may be the
// loop's own growth, of which the one that left saw only a steady part
// (an element forced the first time a scan meets it).
func refineResponsible(f *Findings, xs []float64) {
	f.cal, f.growing = calibrationIndex(f.Sites), growingBare(f.Sites)
	defer func() { f.cal, f.growing = nil, nil }()
	moved := map[movedKey][]int{}
	stuck := map[*Site]int{}
	for again := true; again; {
		again = false
		for _, s := range f.Sites {
			if s.Fit.Grows() && s.moveOut(f, xs, moved, stuck) {
				again = true
			}
		}
	}
}

// moveOut moves the site's responsible frame out while its loop is
// one that does not grow for it: a site that outnumbers it left it
// (moved holds the counts of the largest site that left each loop), or
// a calibration or a flat loop shows so, noting each loop it leaves in
// moved. stuck keeps the candidate where the counts said no, so that a
// later pass asks only whether another site has left it since. It
// reports whether moved gained a loop or a larger site.
func (site *Site) moveOut(f *Findings, xs []float64, moved map[movedKey][]int, stuck map[*Site]int) bool {
	added := false
	for i := site.current(); i >= 0 && i+1 < len(site.cands); {
		to := i + 1
		if !outnumbers(f, moved[site.movedKey(site.cands[i])], site.Counts) {
			if at, ok := stuck[site]; ok && at == i {
				break
			}
			if to = site.steadyOut(f, xs, i); to < 0 {
				stuck[site] = i
				break
			}
		}
		for ; i < to; i++ { // each loop left
			key := site.movedKey(site.cands[i])
			if m := moved[key]; m == nil || site.Counts[len(site.Counts)-1] > m[len(m)-1] {
				moved[key], added = site.Counts, true
			}
		}
		site.use(site.cands[to])
	}
	return added
}

// steadyOut returns the index of the candidate the site moves out to
// from candidate i, whose loop does not grow for it, or -1 if the counts
// do not say so: the next candidate, where a site calls from inside its
// loop with a steady ratio to this one's, or where the loop is a bare
// one that another site goes through and stays flat (flatLoop); or, where
// nothing calls from inside the next candidate's loop, the nearest
// candidate further out that a site calls from inside with a steady
// ratio: none of the loops in between grows either (Caddy's route chain
// reads a request's path two loops of one inside the loop over the
// routes, which reads each route's group).
func (site *Site) steadyOut(f *Findings, xs []float64, i int) int {
	if flatLoop(f, site, site.cands[i]) {
		return i + 1
	}
	for m := i + 1; m < len(site.cands) && m <= i+maxLoopsLeft; m++ {
		if cal := calibration(f.cal, site, site.cands[m]); cal != nil {
			if sameRatio(f, xs, site, cal) {
				return m
			}
			return -1
		}
	}
	return -1
}

// maxLoopsLeft is the most candidates a site moves out past at once.
const maxLoopsLeft = 3

// outnumbers reports whether counts a are at least b's in every used
// sub-trace (false for no a).
func outnumbers(f *Findings, a, b []int) bool {
	if a == nil {
		return false
	}
	for i, u := range f.Used {
		if u && a[i] < b[i] {
			return false
		}
	}
	return true
}

// current is the index of the site's responsible frame among its
// candidates, -1 for none.
func (site *Site) current() int {
	for i, c := range site.cands {
		if c.k == site.Responsible {
			return i
		}
	}
	return -1
}

// movedKey names a candidate's loop with the frames further out: the
// same function, loop and reason, reached the same way.
type movedKey struct {
	fn    string
	loop  int
	why   string
	outer uint64 // FNV-1a of the frames past the candidate's
}

func (site *Site) movedKey(c candidate) movedKey {
	h := fnv.New64a()
	var buf []byte
	for _, fr := range site.Frames[c.k+1:] {
		buf = append(buf[:0], fr.Func...)
		buf = append(append(buf, 0), fr.File...)
		buf = strconv.AppendInt(append(buf, 0), int64(fr.Line), 10)
		h.Write(append(buf, 0))
	}
	return movedKey{site.Frames[c.k].Func, c.loop, c.why, h.Sum64()}
}

// flatLoop reports whether the loop of candidate c of site s, a bare
// for { ... } (its trip count set by a break or return, not by a
// collection or a condition), does not grow with the size: another site
// makes its calls from inside the same loop (the same function and loop
// line) from elsewhere in the program, at every size, and its counts
// do not grow. (A range loop over a collection is left named: a helper
// that walks a small list once per run and the input's list per item
// grows in its loop.) A retry loop (for { ...
// request; if ok return }) runs once per request, whoever asks: the
// request made once per run stays flat through it while the one made
// per node grows, so the growth is further out. A flat site that enters
// the loop under the same callers as s does not tell that: a lexer's
// loop emits the end of the input once a run, in its last turn, under
// the callers of all the others, and it is that loop's turns that grow.
// Nor does one under callers through which another site of the same
// loop grows: a walk's read of its root, once a walk, beside the same
// walk's reads of each node (graphql-go's visitor, one bare loop, run
// again from inside one of its callbacks: doc/cases/graphql-reads.md).
func flatLoop(f *Findings, s *Site, c candidate) bool {
	if c.why != WhyLoop || !c.bare {
		return false
	}
	fn := s.Frames[c.k].Func
	for _, o := range f.Sites {
		if o == s || o.Fit.Grows() || o.Fit.Class == ClassNone {
			continue
		}
		for _, oc := range o.cands {
			if oc.why == WhyLoop && oc.loop == c.loop && o.Frames[oc.k].Func == fn && calledAtEvery(f, o) &&
				!slices.Equal(o.Frames[oc.k+1:], s.Frames[c.k+1:]) && !f.growing[o.movedKey(oc)] {
				return true
			}
		}
	}
	return false
}

// growingBare returns the bare loops that a growing site's candidates
// go through, each with the frames further out (movedKey).
func growingBare(sites []*Site) map[movedKey]bool {
	m := map[movedKey]bool{}
	for _, s := range sites {
		if !s.Fit.Grows() {
			continue
		}
		for _, c := range s.cands {
			if c.why == WhyLoop && c.bare {
				m[s.movedKey(c)] = true
			}
		}
	}
	return m
}

// bareFor reports whether the statement at line of the file is a for
// loop without a condition, an init or a post statement (for { ... }).
// One that counts its turns (for i := 0; ; i++, a probe for a free name)
// is not: its trip count is the data's, as a range loop's is.
func (s *sources) bareFor(path string, line int) bool {
	p := s.file(path)
	if p.f == nil || line <= 0 {
		return false
	}
	s.mu.Lock()
	bare, ok := p.bare[line]
	s.mu.Unlock()
	if ok {
		return bare // the file's syntax tree is walked once a line, not once a frame
	}
	found := false
	ast.Inspect(p.f, func(n ast.Node) bool {
		if fs, ok := n.(*ast.ForStmt); ok && p.fset.Position(fs.Pos()).Line == line && fs.Cond == nil && fs.Init == nil && fs.Post == nil {
			found = true
		}
		return !found
	})
	s.mu.Lock()
	p.bare[line] = found
	s.mu.Unlock()
	return found
}

// calledAtEvery reports whether a site has calls in every used
// sub-trace.
func calledAtEvery(f *Findings, o *Site) bool {
	for i, u := range f.Used {
		if u && o.Counts[i] == 0 {
			return false
		}
	}
	return true
}

// calibration finds a site other than s whose first candidate is s's
// candidate c (the same function, from inside the same loop) with the
// same frames further out, reached through as many levels of folded
// recursion in some of their stacks (foldedAlike). A site in another loop of that function (one that registers
// N routes, beside the one that serves requests) says nothing about how
// often c's loop goes round; nor does one that reaches it only deeper in
// a recursive walk (a tree walk's observer of each leaf, beside one that
// loops over the children of the root: folded, their stacks are alike).
func calibration(idx calibrations, s *Site, c candidate) *Site {
	k := c.k
	for _, o := range idx[calibrationKey(s, c)] {
		if o == s || o.cands[0].nested || !foldedAlike(o.folded, s.folded) {
			continue
		}
		ok := o.cands[0].k
		same := true
		for j := 1; ok+j < len(o.Frames); j++ {
			if o.Frames[ok+j] != s.Frames[k+j] {
				same = false
				break
			}
		}
		if same {
			return o
		}
	}
	return nil
}

// calibrations are the sites with a candidate, by the key of their first
// (calibrationKey), in the order of Findings.Sites: a calibration is
// looked for among the sites of one key, not all of them (Hugo's
// -reads session has 67,613 sites, 5,427 growing, each asking for
// several candidates).
type calibrations map[calKey][]*Site

// A calKey is what a calibration shares with the site it calibrates: the
// candidate's function, why and loop, and the frames further out.
type calKey struct {
	fn, why     string
	loop, outer int
}

func calibrationKey(s *Site, c candidate) calKey {
	return calKey{s.Frames[c.k].Func, c.why, c.loop, len(s.Frames) - c.k}
}

func calibrationIndex(sites []*Site) calibrations {
	idx := calibrations{}
	for _, o := range sites {
		if len(o.cands) > 0 {
			k := calibrationKey(o, o.cands[0])
			idx[k] = append(idx[k], o)
		}
	}
	for _, os := range idx {
		slices.SortStableFunc(os, func(a, b *Site) int { return cmp.Compare(b.Total, a.Total) })
	}
	return idx
}

// foldedAlike reports whether two sites' terminals have a stack in
// common from which folding took out as many frames (folded, in order):
// a site whose calls are all a level deeper in a recursion than the
// other's is not alike; one whose calls go a level deeper only now and
// then (a list type's name, read through its element's) is.
func foldedAlike(a, b []int) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return len(a) == 0 && len(b) == 0
}

// sameRatio reports whether a's counts are a steady multiple of b's over
// the used sub-traces: b called at every size, and the ratio flat by the
// growth rule.
func sameRatio(f *Findings, xs []float64, a, b *Site) bool {
	var ratio []float64
	for i, u := range f.Used {
		if !u {
			continue
		}
		if b.Counts[i] == 0 {
			return false
		}
		ratio = append(ratio, float64(a.Counts[i])/float64(b.Counts[i]))
	}
	lo, hi := minMax(ratio)
	return len(ratio) >= 3 && !FitGrowth(xs, ratio).Grows() && hi <= 1.5*lo
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
// whole stacks, and not the same number of times in all of them: a
// recursion whose depth varies. A function that appears twice in every
// stack of the site is a type nested in itself at a fixed depth (an
// iterator wrapping an iterator of its own type, as a SQL engine's
// plan nests them), whose calls do not grow with a depth; the loop that
// calls it is looked for further out.
func recursive(f tracefile.Frame, whole [][]tracefile.Frame) bool {
	depths := map[int]bool{}
	deep := false
	for _, st := range whole {
		n := 0
		for _, g := range st {
			if g.Func == f.Func {
				n++
			}
		}
		depths[n] = true
		deep = deep || n >= 2
	}
	return deep && len(depths) > 1
}

// recursionLoop returns the loop of a recursive frame's function that
// a recursion one level deep goes through, and the line of the recursive
// call in it: in every whole stack, the function's activation further out
// than f's (which folding took out), if any, is the only one, and calls
// on from inside one loop of the function, at one line (a resolver whose
// loop over the imports calls itself on each import, whose first
// statement reads the import's name). The reads of the inner activation
// then belong to that loop, as the reads in the loop itself do: one
// finding, at the loop. 0 when some stack holds the function three times
// or more, or an outer activation calls from elsewhere, or from two lines,
// or none is found. (candidates also asks that no stack of any site holds
// it three times: a tree walk, whose depth is the input's, is named as a
// recursion at every site.)
func (s *sources) recursionLoop(f tracefile.Frame, whole [][]tracefile.Frame) (loop, line int) {
	for _, st := range whole {
		seen := 0 // the innermost activation is f's, whatever its line
		for _, g := range st {
			if g.Func != f.Func {
				continue
			}
			if seen++; seen == 1 {
				continue
			}
			if seen > 2 || line != 0 && g.Line != line {
				return 0, 0
			}
			if line == 0 {
				if loop = s.loopAt(g.File, g.Line, g.Func); loop == 0 {
					return 0, 0
				}
				line = g.Line
			}
		}
	}
	return loop, line
}
