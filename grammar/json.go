package grammar

import (
	"encoding/json"
	"fmt"
)

// JSONVersion is the version of the JSON form written by MarshalJSON.
//
// The JSON form of a Grammar:
//
//	{
//	  "version": 1,
//	  "lossless": false,
//	  "comparison": true,        // Comparison Mode (one rule per sub-trace)
//	  "subTraces": 4,            // non-empty sub-traces
//	  "terminals": ["a", "b"],   // terminal names by id
//	  "start": [RP, ...],        // right-hand side of S
//	  "moreStart": 5,            // items of S left out by Cut (absent: none)
//	  "rules": [{"name": "A", "body": [RP, ...], "more": 5}, ...]  // canonical order
//	}
//
// where an RP is
//
//	{"sym": "a", "terminal": true, "counts": [4, 5, 6, 7],
//	 "obs": [{"sub": 0, "count": 4, "times": 1}, ...], "moreObs": 5}
//
// "sym" is a terminal's name or a rule's name; "obs" lists the
// observations behind the counts (sub-trace -1: formed across sub-traces).
// "more" (a rule's items) and "moreObs" (an item's observations) count
// what Cut left out; they are absent when nothing was, as in a grammar
// that was not cut.
const JSONVersion = 1

type jsonGrammar struct {
	Version    int        `json:"version"`
	Lossless   bool       `json:"lossless"`
	Comparison bool       `json:"comparison"`
	SubTraces  int        `json:"subTraces"`
	Terminals  []string   `json:"terminals"`
	Start      []jsonRP   `json:"start"`
	StartMore  int        `json:"moreStart,omitempty"`
	Rules      []jsonRule `json:"rules"`
}

type jsonRule struct {
	Name string   `json:"name"`
	Body []jsonRP `json:"body"`
	More int      `json:"more,omitempty"`
}

type jsonRP struct {
	Sym      string    `json:"sym"`
	Terminal bool      `json:"terminal"`
	Counts   []int     `json:"counts"`
	Obs      []jsonObs `json:"obs"`
	MoreObs  int32     `json:"moreObs,omitempty"`
}

type jsonObs struct {
	Sub   int32 `json:"sub"`
	Count int32 `json:"count"`
	Times int32 `json:"times"`
}

// MarshalJSON writes the documented JSON form.
func (g *Grammar) MarshalJSON() ([]byte, error) { return json.Marshal(g.jsonForm()) }

// JSONForm returns the value MarshalJSON marshals, a struct of the
// documented fields whose start and rules' bodies are JSONItems: a
// writer that marshals them an item at a time (suncat summary -json)
// writes the same JSON without holding the items' form at once.
func (g *Grammar) JSONForm() any { return g.jsonForm() }

// jsonOut is the JSON form as written: jsonGrammar with its items made
// as they are marshalled.
type jsonOut struct {
	Version    int           `json:"version"`
	Lossless   bool          `json:"lossless"`
	Comparison bool          `json:"comparison"`
	SubTraces  int           `json:"subTraces"`
	Terminals  []string      `json:"terminals"`
	Start      JSONItems     `json:"start"`
	StartMore  int           `json:"moreStart,omitempty"`
	Rules      []jsonOutRule `json:"rules"`
}

type jsonOutRule struct {
	Name string    `json:"name"`
	Body JSONItems `json:"body"`
	More int       `json:"more,omitempty"`
}

// JSONItems is the right-hand side of a rule in the JSON form: a JSON
// array of its items ({"sym", "terminal", "counts", "obs"}), each made
// when it is marshalled.
type JSONItems struct {
	g   *Grammar
	rps []RP
}

// Len returns the number of items.
func (x JSONItems) Len() int { return len(x.rps) }

// Item returns item i's JSON form, a struct to marshal.
func (x JSONItems) Item(i int) any { return x.g.jsonRP(x.rps[i]) }

// MarshalJSON writes the items as a JSON array.
func (x JSONItems) MarshalJSON() ([]byte, error) { return json.Marshal(x.g.jsonRPs(x.rps)) }

func (g *Grammar) jsonForm() jsonOut {
	j := jsonOut{
		Version:    JSONVersion,
		Lossless:   g.Lossless,
		Comparison: g.Comparison,
		SubTraces:  g.SubTraces,
		Terminals:  g.Terminals,
		Start:      JSONItems{g, g.Start},
		StartMore:  g.StartMore,
		Rules:      make([]jsonOutRule, len(g.Rules)),
	}
	if j.Terminals == nil {
		j.Terminals = []string{}
	}
	for i, r := range g.Rules {
		j.Rules[i] = jsonOutRule{Name: r.Name, Body: JSONItems{g, r.Body}, More: r.More}
	}
	return j
}

func (g *Grammar) jsonRPs(rps []RP) []jsonRP {
	out := make([]jsonRP, len(rps))
	for i, rp := range rps {
		out[i] = g.jsonRP(rp)
	}
	return out
}

func (g *Grammar) jsonRP(rp RP) jsonRP {
	obs := make([]jsonObs, len(rp.Obs))
	for k, o := range rp.Obs {
		obs[k] = jsonObs(o)
	}
	return jsonRP{Sym: g.SymName(rp.Sym), Terminal: rp.Sym.IsTerminal(), Counts: rp.Counts, Obs: obs, MoreObs: rp.MoreObs}
}

// UnmarshalJSON reads the JSON form written by MarshalJSON.
func (g *Grammar) UnmarshalJSON(data []byte) error {
	var j jsonGrammar
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.Version != JSONVersion {
		return fmt.Errorf("grammar JSON version %d, want %d", j.Version, JSONVersion)
	}
	terms := make(map[string]int, len(j.Terminals))
	for i, t := range j.Terminals {
		terms[t] = i
	}
	rules := make(map[string]int, len(j.Rules))
	for i, r := range j.Rules {
		rules[r.Name] = i
	}
	conv := func(in []jsonRP) ([]RP, error) {
		out := make([]RP, len(in))
		for i, rp := range in {
			var sym Sym
			if rp.Terminal {
				t, ok := terms[rp.Sym]
				if !ok {
					return nil, fmt.Errorf("unknown terminal %q", rp.Sym)
				}
				sym = Sym(t)
			} else {
				r, ok := rules[rp.Sym]
				if !ok {
					return nil, fmt.Errorf("unknown rule %q", rp.Sym)
				}
				sym = ruleSym(r)
			}
			obs := make([]Obs, len(rp.Obs))
			for k, o := range rp.Obs {
				obs[k] = Obs(o)
			}
			if rp.MoreObs < 0 {
				return nil, fmt.Errorf("item %q: negative moreObs %d", rp.Sym, rp.MoreObs)
			}
			out[i] = RP{Sym: sym, Counts: rp.Counts, Obs: obs, MoreObs: rp.MoreObs}
		}
		return out, nil
	}
	if j.StartMore < 0 {
		return fmt.Errorf("negative moreStart %d", j.StartMore)
	}
	*g = Grammar{Terminals: j.Terminals, SubTraces: j.SubTraces, Comparison: j.Comparison, Lossless: j.Lossless, StartMore: j.StartMore}
	var err error
	if g.Start, err = conv(j.Start); err != nil {
		return err
	}
	g.Rules = make([]Rule, len(j.Rules))
	for i, r := range j.Rules {
		if r.More < 0 {
			return fmt.Errorf("rule %q: negative more %d", r.Name, r.More)
		}
		g.Rules[i].Name, g.Rules[i].More = r.Name, r.More
		if g.Rules[i].Body, err = conv(r.Body); err != nil {
			return err
		}
	}
	return nil
}
