package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

// ProfileOptions are what a profile says besides the summary's counts.
type ProfileOptions struct {
	Start    time.Time     // when the first trace started (zero: unknown)
	Duration time.Duration // how long the traces span (0: unknown)
	Program  string        // the recorded program, named in the profile's mapping
}

// Profile converts the summary into a pprof profile (see the package
// documentation for its sample types and labels).
func Profile(s *prioritize.Summary, opt ProfileOptions) *profile.Profile {
	b := newBuilder(opt.Program)
	p := b.p
	p.Comments = []string{fmt.Sprintf("suncat: %s of %s, sub-traces: %s", prioritize.EventWords(s), strings.Join(s.Traces, " "), s.Split)}
	if s.Run != "" {
		p.Comments = append(p.Comments, "suncat: only the sub-traces of -run "+s.Run)
	}
	if !opt.Start.IsZero() {
		p.TimeNanos = opt.Start.UnixNano()
	}
	p.DurationNanos = int64(opt.Duration)
	sites := sitesOf(s)
	for gi, g := range s.Groups {
		for _, t := range g.Terminals {
			locs := b.locations(t)
			site := sites[prioritize.TermRef{Group: gi, Letter: t.Letter}]
			for _, c := range t.Subs() {
				sub, calls := c.Sub, c.Calls
				if calls == 0 {
					continue
				}
				labels := map[string][]string{
					"getter":    {t.Name},
					"goroutine": {g.Goroutine},
					"subtrace":  {g.SubTraces[sub].Label},
				}
				if site != nil {
					labels["site"] = []string{site.Name + " at " + prioritize.WhereText(site)}
					if site.Fit.Grows() {
						labels["growth"] = []string{prioritize.ClassText(site.Fit.Class)}
					}
				}
				num := map[string][]int64{"repetition": {int64(sub + 1)}}
				if set := hookedSet(t.Getter); set != "" {
					p.Sample = append(p.Sample, b.statementSamples(set, locs, c.Values, calls, labels, num)...)
					continue
				}
				p.Sample = append(p.Sample, &profile.Sample{
					Location: locs,
					Value:    []int64{int64(calls), int64(len(c.Values))},
					Label:    labels,
					NumLabel: num,
				})
			}
		}
	}
	return p
}

// hookedSet is the -calls set ("sql", "http") of a call recorded inside
// the standard library, whose value is its statement or URL; "" for
// other events.
func hookedSet(g tracefile.Getter) string {
	if !g.HookedCall() {
		return ""
	}
	return strings.TrimPrefix(g.Field, tracefmt.CallPrefix)
}

// statementSamples are the samples of a hooked call in one sub-trace: one
// per statement (or URL), whose leaf frame is named by it ("sql: SELECT
// name FROM tags WHERE id = ?", white space folded) below the call's
// stack, with the label statement holding it whole; the calls beyond the
// values the summary kept, without a statement frame.
func (b *builder) statementSamples(set string, locs []*profile.Location, values []prioritize.ValueCount, calls int,
	labels map[string][]string, num map[string][]int64) []*profile.Sample {
	var out []*profile.Sample
	left := calls
	for _, v := range values {
		l := map[string][]string{"statement": {v.Value}}
		for k, vs := range labels {
			l[k] = vs
		}
		leaf := b.statement(set + ": " + prioritize.OneLine(v.Value))
		out = append(out, &profile.Sample{
			Location: append([]*profile.Location{leaf}, locs...),
			Value:    []int64{int64(v.Count), 1},
			Label:    l,
			NumLabel: num,
		})
		left -= v.Count
	}
	if left > 0 {
		out = append(out, &profile.Sample{Location: locs, Value: []int64{int64(left), 0}, Label: labels, NumLabel: num})
	}
	return out
}

// statement returns the location of a statement's frame, named by it.
func (b *builder) statement(name string) *profile.Location {
	f := tracefile.Frame{Func: name}
	if loc := b.locs[f]; loc != nil {
		return loc
	}
	loc := &profile.Location{
		ID:      uint64(len(b.p.Location) + 1),
		Mapping: b.m,
		Line:    []profile.Line{{Function: b.function(f, 0)}},
	}
	b.locs[f] = loc
	b.p.Location = append(b.p.Location, loc)
	return loc
}

// sitesOf indexes the summary's call sites (its findings) by terminal.
func sitesOf(s *prioritize.Summary) map[prioritize.TermRef]*prioritize.Site {
	m := map[prioritize.TermRef]*prioritize.Site{}
	if s.Findings == nil {
		return m
	}
	for _, site := range s.Findings.Sites {
		for _, ref := range site.Terminals {
			m[ref] = site
		}
	}
	return m
}

// WriteProfile writes the summary as a gzipped profile.proto.
func WriteProfile(w io.Writer, s *prioritize.Summary, opt ProfileOptions) error {
	p := Profile(s, opt)
	if err := p.CheckValid(); err != nil {
		return fmt.Errorf("building the profile: %w", err)
	}
	return p.Write(w)
}

// A builder interns a profile's functions and locations.
type builder struct {
	p     *profile.Profile
	m     *profile.Mapping
	funcs map[[2]string]*profile.Function
	locs  map[tracefile.Frame]*profile.Location
}

func newBuilder(program string) *builder {
	if program == "" {
		program = "suncat"
	}
	// One mapping that says the functions, files and lines are all there,
	// so pprof never tries to symbolize the locations from a binary.
	m := &profile.Mapping{ID: 1, File: program, HasFunctions: true, HasFilenames: true, HasLineNumbers: true}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "calls", Unit: "count"},
			{Type: "values", Unit: "count"},
		},
		DefaultSampleType: "calls",
		PeriodType:        &profile.ValueType{Type: "calls", Unit: "count"},
		Period:            1,
		Mapping:           []*profile.Mapping{m},
	}
	return &builder{p: p, m: m, funcs: map[[2]string]*profile.Function{}, locs: map[tracefile.Frame]*profile.Location{}}
}

// locations returns the terminal's stack as profile locations, leaf (the
// getter) first.
func (b *builder) locations(t *prioritize.Terminal) []*profile.Location {
	locs := make([]*profile.Location, len(t.Frames))
	for i, f := range t.Frames {
		loc := b.locs[f]
		if loc == nil {
			start := 0
			if i == 0 && t.Getter.File == f.File {
				start = t.Getter.Line
			}
			loc = &profile.Location{
				ID:      uint64(len(b.p.Location) + 1),
				Mapping: b.m,
				Line:    []profile.Line{{Function: b.function(f, start), Line: int64(f.Line)}},
			}
			b.locs[f] = loc
			b.p.Location = append(b.p.Location, loc)
		}
		locs[i] = loc
	}
	return locs
}

func (b *builder) function(f tracefile.Frame, start int) *profile.Function {
	key := [2]string{f.Func, f.File}
	fn := b.funcs[key]
	if fn == nil {
		fn = &profile.Function{ID: uint64(len(b.p.Function) + 1), Name: f.Func, SystemName: f.Func, Filename: f.File}
		b.funcs[key] = fn
		b.p.Function = append(b.p.Function, fn)
	}
	if fn.StartLine == 0 && start > 0 {
		fn.StartLine = int64(start)
	}
	return fn
}
