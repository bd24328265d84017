package grammar

// Cut returns g with the right-hand side of each rule (S's too) cut to
// its first k items, and the observations of each item kept to their
// first k; StartMore, Rule.More and RP.MoreObs count what is left out.
// It is what a summary shows of a grammar whose rules have millions of
// items (the start rule of a -reads trace): its time and memory are
// linear in the items kept, not in g's places. The result shares the
// kept items' counts and observations with g. Cut returns g itself when
// k <= 0 or when nothing is longer than k; every rule stays, so every
// symbol of a kept item is defined.
func (g *Grammar) Cut(k int) *Grammar {
	if k <= 0 || !g.longer(k) {
		return g
	}
	c := *g
	c.Start, c.StartMore = cutBody(g.Start, g.StartMore, k)
	c.Rules = make([]Rule, len(g.Rules))
	for i, r := range g.Rules {
		c.Rules[i].Name = r.Name
		c.Rules[i].Body, c.Rules[i].More = cutBody(r.Body, r.More, k)
	}
	return &c
}

// longer reports whether a rule has more than k items or an item of a
// rule of at most k items more than k observations.
func (g *Grammar) longer(k int) bool {
	long := func(body []RP) bool {
		if len(body) > k {
			return true
		}
		for _, rp := range body {
			if len(rp.Obs) > k {
				return true
			}
		}
		return false
	}
	if long(g.Start) {
		return true
	}
	for _, r := range g.Rules {
		if long(r.Body) {
			return true
		}
	}
	return false
}

// cutBody keeps the first k items of body, each with its first k
// observations, and returns them with more plus the items left out.
func cutBody(body []RP, more, k int) ([]RP, int) {
	n := min(len(body), k)
	out := make([]RP, n)
	for i := range out {
		rp := body[i]
		if len(rp.Obs) > k {
			rp.MoreObs = addInt32(rp.MoreObs, len(rp.Obs)-k)
			rp.Obs = rp.Obs[:k:k]
		}
		out[i] = rp
	}
	return out, more + len(body) - n
}

func addInt32(a int32, b int) int32 {
	if s := int64(a) + int64(b); s < 1<<31 {
		return int32(s)
	}
	return 1<<31 - 1
}

// Left says what Cut left out of a grammar, over all its rules (S's
// too).
type Left struct {
	Items   int // items left out
	Rules   int // rules with items left out
	Longest int // the most items of one rule, kept and left out
	Obs     int // observations left out
	MostObs int // the most observations of one item, kept and left out
}

// Left counts what Cut left out of g (nothing when g was not cut). Its
// time is linear in g's items.
func (g *Grammar) Left() Left {
	var l Left
	add := func(body []RP, more int) {
		l.Items += more
		if more > 0 {
			l.Rules++
		}
		l.Longest = max(l.Longest, len(body)+more)
		for _, rp := range body {
			l.Obs += int(rp.MoreObs)
			l.MostObs = max(l.MostObs, len(rp.Obs)+int(rp.MoreObs))
		}
	}
	add(g.Start, g.StartMore)
	for _, r := range g.Rules {
		add(r.Body, r.More)
	}
	return l
}
