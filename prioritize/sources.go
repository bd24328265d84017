package prioritize

// Sources is how prioritize reads the user's Go source files: through the
// function its caller gives (suncat reads .go files from disk, tests a
// map or their testdata), each file once, kept parsed. One Sources
// serves every computation that a caller makes over the same files
// (suncat test fits each test family on its own); files changed after
// they were read are not read again.
type Sources struct {
	c sources
}

// NewSources returns a Sources that reads files with read.
func NewSources(read func(path string) ([]byte, error)) *Sources {
	return &Sources{c: sources{read: read}}
}

// cache is the cache of s; a nil s reads nothing.
func (s *Sources) cache() *sources {
	if s == nil {
		return &sources{}
	}
	return &s.c
}

// packageName is the name in the package clause of the file at path (a
// main package's is main, whatever its import path), or a guess from the
// import path when the file cannot be read.
func (s *Sources) packageName(path, importPath string) string {
	if path != "" {
		if p := s.cache().file(path); p.f != nil {
			return p.f.Name.Name
		}
	}
	return packageName(importPath)
}
