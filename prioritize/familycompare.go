package prioritize

import "fmt"

// compareFamilies compares two test suites (suncat test's traces; base
// may be nil) family by family, as the summary fits them: the families
// are matched by name, their members by label without the b.N of a
// benchmark's run (BenchmarkFind/100 (b.N=1000) with BenchmarkFind/100
// (b.N=20000)), and each family's sites are fitted on its own sizes, a
// benchmark's per op. run keeps the members whose name it matches. The
// tests that give no class are left out. hf are HEAD's families, fitted
// here when nil. The fits read the sources through src.
func compareFamilies(base, head *Summary, hf []*Family, run string, src *Sources) (*Comparison, error) {
	keep, err := compileRun(run)
	if err != nil {
		return nil, err
	}
	if hf == nil {
		if hf, _, err = Families(head, Options{Stacks: head.Findings.Stacks, Sources: src}); err != nil {
			return nil, err
		}
	}
	var bf []*Family
	if base != nil {
		if bf, _, err = Families(base, Options{Stacks: base.Findings.Stacks, Sources: src}); err != nil {
			return nil, err
		}
	}
	byName := map[string]*Family{}
	for _, f := range bf {
		byName[f.Name] = f
	}
	c := &Comparison{HasBase: base != nil}
	shared := false
	seen := map[string]bool{}
	for _, h := range hf {
		seen[h.Name] = true
		b := byName[h.Name]
		if fc := compareFamily(b, h, keep, base != nil); fc != nil {
			c.Families = append(c.Families, fc)
			shared = shared || b != nil // fc has the members both have
		}
	}
	for _, b := range bf {
		if !seen[b.Name] {
			if fc := compareFamily(b, nil, keep, true); fc != nil {
				c.Families = append(c.Families, fc)
			}
		}
	}
	if base != nil && !shared && (len(hf) > 0 || len(bf) > 0) {
		that := ""
		if run != "" {
			that = fmt.Sprintf(" whose label matches %q", run)
		}
		return nil, fmt.Errorf("BASE and HEAD share no sub-trace with events%s in a test family (BASE: %s; HEAD: %s)",
			that, labelList(subTraceLabels(base)), labelList(subTraceLabels(head)))
	}
	named := len(c.Families) > 1
	for _, fc := range c.Families {
		c.Labels = append(c.Labels, fc.Labels...)
		c.Sizes = append(c.Sizes, fc.Sizes...)
		for _, d := range fc.Sites {
			d.named = named
			c.Sites = append(c.Sites, d)
		}
	}
	markAmbiguous(c.Sites)
	switch len(c.Families) {
	case 0:
		c.Note = "no test family has sizes"
	case 1:
		c.Target, c.Note = c.Families[0].Target, c.Families[0].Note
	}
	return c, nil
}

// compareFamily compares one family of BASE (b) and HEAD (h), either
// nil when the other run does not have it (then its sites are new, or
// gone): over the members both have, when both do. It returns nil when
// no member is left to fit.
func compareFamily(b, h *Family, keep *runFilter, hasBase bool) *Comparison {
	bi, hi, labels, sizes := sharedMembers(b, h, keep)
	if len(labels) == 0 {
		return nil
	}
	fam := h
	if fam == nil {
		fam = b
	}
	c := &Comparison{HasBase: hasBase, Family: FamilyName(fam), Labels: labels, Sizes: sizes}
	_, top := minMax(sizes)
	c.Target = 10 * top
	if d := distinct(sizes); d < 3 {
		c.Note = fmt.Sprintf("%d distinct sizes in the shared sub-traces; growth needs 3", d)
	}
	var bsites, hsites []*Site
	if b != nil {
		bsites = b.Findings.Sites
	}
	if h != nil {
		hsites = h.Findings.Sites
	}
	pairs, gone := matchSites(bsites, hsites)
	for i, s := range hsites {
		d := newSiteDiff(s)
		d.Family = c.Family
		d.Head = fitSide(s, hi, sizes, c.Target)
		if p := pairs[i]; p != nil {
			d.Base = fitSide(p, bi, sizes, c.Target)
		}
		if hasBase {
			d.classify(sizes)
		}
		c.Sites = append(c.Sites, d)
	}
	for _, s := range gone {
		d := newSiteDiff(s)
		d.Family = c.Family
		d.Base = fitSide(s, bi, sizes, c.Target)
		d.Change = ChangeGone
		c.Sites = append(c.Sites, d)
	}
	if b != nil && h != nil {
		markNewGrowth(c.Sites)
	}
	return c
}

// sharedMembers returns the members of a family that the comparison fits
// on: those both sides have, matched by name without a benchmark's b.N
// (bi and hi their indexes in b and h), or with one side only, its
// members (in hi, or in bi when h is nil); each used in its fit and kept
// by keep, with its label and size.
func sharedMembers(b, h *Family, keep *runFilter) (bi, hi []int, labels []string, sizes []float64) {
	member := func(f *Family, k int) (string, bool) {
		name, _, _ := BenchN(f.Members[k])
		return name, k < len(f.Findings.Used) && f.Findings.Used[k] && keep.match(name)
	}
	switch {
	case h != nil && b != nil:
		byName := map[string][]int{}
		for k := range b.Members {
			if name, ok := member(b, k); ok {
				byName[name] = append(byName[name], k)
			}
		}
		for k := range h.Members {
			name, ok := member(h, k)
			if !ok || len(byName[name]) == 0 {
				continue
			}
			bi, hi = append(bi, byName[name][0]), append(hi, k)
			byName[name] = byName[name][1:]
			labels, sizes = append(labels, name), append(sizes, h.Sizes[k])
		}
	default:
		one := h
		if one == nil {
			one = b
		}
		for k := range one.Members {
			if name, ok := member(one, k); ok {
				hi = append(hi, k)
				labels, sizes = append(labels, name), append(sizes, one.Sizes[k])
			}
		}
		if h == nil {
			bi, hi = hi, nil
		}
	}
	return bi, hi, labels, sizes
}
