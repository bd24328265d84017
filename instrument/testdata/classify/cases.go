// Package cases holds one function per classifier case. The comment
// before each says what the classifier must decide:
// "getter FIELD" or "reject REASON-SUBSTRING". Functions without such a
// comment must not be reported at all.
package cases

import (
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
