package loops

// A resolver that looks each name up through the imports (protocompile's
// resolveInFile, doc/cases/protocompile-reads.md): find's loop over the
// imports calls find on each import, one level deep, whose first
// statement reads the import's name. One loop grows; the reads of the
// inner activation are its turns.

type file struct {
	name    string
	public  bool
	imports []*file
}

func find(f *file, name string, depth int) bool {
	if f.name == name {
		return true
	}
	if depth > 0 {
		return false
	}
	for _, imp := range f.imports {
		if imp.public {
			continue
		}
		if find(imp, name, depth+1) {
			return true
		}
	}
	return false
}
