package prioritize

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Gate is what suncat check enforces on a Comparison.
type Gate struct {
	// Max is the slowest-growing class allowed; ClassNone: no maximum.
	Max Class
	// Allow waives the sites where it matches the getter
	// ("example.com/dir.(*Entry).Name"), the responsible frame's
	// function ("example.com/dir.lookup") or its file:line ("dir.go:21");
	// nil waives none.
	Allow *regexp.Regexp
	// AllowNew accepts the new sites that grow (SiteDiff.GrowsNew): they
	// are reported, marked Waived, and do not fail the check.
	AllowNew bool
}

// A Failure is a site that fails the gate: its class is up from BASE
// (beyond noise), or it is new and grows where BASE had nothing growing
// as fast at its loop, or its class is above Max.
type Failure struct {
	Site     *SiteDiff `json:"site"`
	Worse    bool      `json:"worse"`              // its class is up from BASE
	New      bool      `json:"new"`                // a new site that grows (SiteDiff.GrowsNew)
	AboveMax bool      `json:"aboveMax"`           // its class is above Gate.Max
	Waived   bool      `json:"waived"`             // it does not fail the check: waived by WaivedBy
	WaivedBy string    `json:"waivedBy,omitempty"` // "-allow" (Gate.Allow matched it), "-allow-new" (new, and Gate.AllowNew) or "clock" (paced by a clock, SiteSide.Clock)
	Line     string    `json:"line"`               // as check prints it
}

// WaivedClock is Failure.WaivedBy for a site paced by a clock.
const WaivedClock = "clock"

// Check returns the sites of c that fail the gate, waived ones included
// (marked), in c's order. A site gone never fails; nor does a site whose
// class cannot be told.
func (g Gate) Check(c *Comparison) []Failure {
	var out []Failure
	for _, d := range c.Sites {
		if d.Head == nil {
			continue
		}
		f := Failure{Site: d}
		f.Worse = d.Change == ChangeUp && !d.Noise
		f.New = d.GrowsNew && c.HasBase
		f.AboveMax = g.Max != ClassNone && d.Head.Fit.Class > g.Max
		if !f.Worse && !f.New && !f.AboveMax {
			continue
		}
		switch {
		case g.Allow != nil && g.allows(d):
			f.Waived, f.WaivedBy = true, "-allow"
		case g.AllowNew && f.New && !f.AboveMax:
			f.Waived, f.WaivedBy = true, "-allow-new"
		case d.Head.Clock != "":
			// its counts measure how long the run took, not the input
			f.Waived, f.WaivedBy = true, WaivedClock
		}
		f.Line = g.line(c, f)
		out = append(out, f)
	}
	return out
}

func (g Gate) allows(d *SiteDiff) bool {
	h := d.Head
	return g.Allow.MatchString(d.Getter) || g.Allow.MatchString(d.Func) ||
		g.Allow.MatchString(filepath.Base(h.File)+":"+strconv.Itoa(h.Line))
}

// line writes a failure as FailureLine does.
func (g Gate) line(c *Comparison, f Failure) string { return FailureLine(c, f, g.Max) }

// classWords are the classes' names as check and diff print them, and
// the first names ParseClass reads.
var classWords = [...]string{"none", "constant", "log", "linear", "n log n", "quadratic", "cubic", "exponential"}

// Word is the class's name in words: "linear", "quadratic"; String is
// its formula ("n", "n^2").
func (c Class) Word() string {
	if c < 0 || int(c) >= len(classWords) {
		return c.String()
	}
	return classWords[c]
}

// ParseClass reads a growth class (suncat check -max) by its word
// ("constant", "log", "linear", "n log n", "quadratic", "cubic",
// "exponential") or its formula ("log n", "n", "n^2", "n^3", "2^n");
// "none" is not a class one can ask for.
func ParseClass(s string) (Class, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for c := ClassConstant; c <= ClassExponential; c++ {
		if t == classWords[c] || t == classNames[c] || t == strings.ReplaceAll(classNames[c], " ", "") {
			return c, nil
		}
	}
	return ClassNone, fmt.Errorf("%q is not a growth class (want one of %s)", s, strings.Join(classWords[1:], ", "))
}
