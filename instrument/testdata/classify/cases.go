// Package cases holds one function per classifier case. The comment
// before each says what the classifier must decide:
// "getter FIELD" or "reject REASON-SUBSTRING". Functions without such a
// comment must not be reported at all.
package cases

import (
	"fmt"
	"log"
	"strings"
	"sync"
)

type Stop struct {
	name  string
	code  string
	inner Inner
	*Route
	data []byte
	tags map[string]string
	mu   sync.Mutex
	rw   sync.RWMutex

	names []string
	pair  [2]string
}

type Inner struct{ label string }

type Route struct{ short string }

type Name string

type Proto struct {
	Title *string
	Name  string
}

type List[T any] struct {
	name  string
	items []T
}

// getter name
func (s *Stop) Name() string { return s.name }

// getter code
func (s Stop) Code() string { return s.code }

// getter inner.label
func (s *Stop) Label() string { return s.inner.label }

// getter Route.short
func (s *Stop) Short() string { return s.short }

// getter name
func (s *Stop) Typed() Name { return Name(s.name) }

// getter name
func (s *Stop) Lookup() (string, bool) { return s.name, s.name != "" }

// getter Name
func (p *Proto) GetName() string {
	if p != nil {
		return p.Name
	}
	return ""
}

// getter *Title
func (p *Proto) GetTitle() string {
	if p != nil && p.Title != nil {
		return *p.Title
	}
	return ""
}

// getter name
func (s *Stop) Bare() (n string) {
	n = s.name
	return
}

// getter name
func (s *Stop) Locked() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// getter name
func (l *List[T]) Name() string { return l.name }

// getter name, code
func (s *Stop) Either(b bool) string {
	if b {
		return s.name
	}
	return s.code
}

// reject call to strings.ToUpper
func (s *Stop) Upper() string { return strings.ToUpper(s.name) }

// reject concatenation
func (s *Stop) Concat() string { return s.name + "!" }

// reject conversion from []byte
func (s *Stop) Bytes() string { return string(s.data) }

// reject map lookup
func (s *Stop) Tag() string { return s.tags["k"] }

// reject map lookup
func (s *Stop) TagOK() (string, bool) {
	v, ok := s.tags["k"]
	return v, ok
}

// reject deferred closure may change the result
func (s *Stop) Deferred() (n string) {
	defer func() { n = strings.ToUpper(n) }()
	return s.name
}

// getter name
func (s *Stop) ReadLocked() string {
	s.rw.RLock()
	defer s.rw.RUnlock()
	return s.name
}

// getter name
func (s *Stop) LockedBare() (n string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n = s.name
	return
}

// getter name
func (s *Stop) DeferredReadOnly() (n string) {
	defer func() { log.Println("name:", n) }()
	return s.name
}

// reject deferred closure may change the result
func (s *Stop) DeferredRecover() (n string) {
	defer func() {
		if r := recover(); r != nil {
			n = fmt.Sprint(r)
		}
	}()
	return s.name
}

// reject deferred closure may change the result
func (s *Stop) DeferredNested() (n string) {
	defer func() {
		func() { n = strings.TrimSpace(n) }()
	}()
	return s.name
}

// reject a closure may change the returned variable
func (s *Stop) Closure() string {
	n := s.name
	func() { n = strings.ToLower(n) }()
	return n
}

// reject address is passed to cases.fill
func (s *Stop) Filled() (n string) {
	fill(&n)
	return
}

func fill(p *string) { *p = "x" }

// reject call to fmt.Sprint
func (s *Stop) Sprint() string { return fmt.Sprint(s.name) }

// reject conversion from rune
func (s *Stop) Rune() string { return string(rune(s.data[0])) }

// reject package variable
func (s *Stop) Global() string { return global }

var global = "g"

// reject type assertion
func (s *Stop) Asserted(v interface{}) string {
	if x, ok := v.(string); ok {
		return x
	}
	return s.name
}

// reject element of a slice or array
func (s *Stop) First() string { return s.names[0] }

// reject element of a slice or array
func (s Stop) Second() string { return s.pair[1] }

// reject only constants
func (s *Stop) Const() string { return "fixed" }

// reject parameter
func (s *Stop) Echo(x string) string { return x }

// reject substring
func (s *Stop) Prefix() string { return s.name[:1] }

// Not a string result: not reported.
func (s *Stop) Len() int { return len(s.name) }

// A plain function: reported only with -funcs.
func PlainName(s *Stop) string { return s.name }
