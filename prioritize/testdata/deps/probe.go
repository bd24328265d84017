// A code generator's import registry, for TestDepProbeLoop: each name
// added probes aliases (name, name0, name1, ...) until one is free, in a
// loop with a counter and no condition; the generator adds N names, all
// alike, and another name once a run.
package main

func (r *Registry) add(name string) string {
	alias := name
	for i := 0; ; i++ {
		if !r.used(alias) {
			break
		}
		alias = name + itoa(i)
	}
	r.mark(alias)
	return alias
}

func generate(r *Registry, names []string) {
	for _, n := range names {
		r.add(n)
	}
	r.add("context")
}
