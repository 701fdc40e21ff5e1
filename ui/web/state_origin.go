package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// Where a state page starts: the explorer's default scope, a built-in
// drill's world with its parameters, or a counterexample's, resolved once
// and kept (stateCache), with the steps its run took from there.

// origin is a resolved start: the world, and the steps its drill or
// counterexample took from it.
type origin struct {
	start explore.Start
	path  []string
	from  string     // the from parameter, "" for the explorer's scope
	query url.Values // from and the drill's parameters, as links carry them
	link  string     // the drill's or the counterexample's page
	walk  *explore.Walk
}

// MaxStateKeys is the most keys a state page's world may hold: each page
// replays its path from the start for each step it offers and more to
// find the nearest violation (a thousand keys take milliseconds, ten
// thousand over a second; the budget's ten seconds hold that on a busy
// machine).
const MaxStateKeys = 10_000

// problem is a request the page cannot serve, in words: a status and a
// message.
type problem struct {
	status int
	msg    string
}

func (p *problem) Error() string { return p.msg }

// resolve finds the start a request names.
func (s *Server) resolve(ctx context.Context, q url.Values, p *page, mech string) (*origin, error) {
	from := q.Get("from")
	key := mech + "?" + from
	sec, _ := harness.SectionByName(mech)
	d, isDrill := (*drills.Drill)(nil), false
	if from != "" && !strings.HasPrefix(from, "explore-") {
		var err error
		if d, err = drills.Lookup(from); err != nil {
			return nil, &problem{http.StatusNotFound, p.T("err.unknown-drill", from)}
		}
		if d.Sec() != sec {
			return nil, &problem{http.StatusNotFound, p.T("web.state.err.section", from, d.Section, mech)}
		}
		isDrill = true
		for _, dp := range d.Params {
			if v := q.Get(dp.Name); v != "" {
				key += "&" + dp.Name + "=" + v
			}
		}
	}
	s.states.mu.Lock()
	o, ok := s.states.origins[key]
	s.states.mu.Unlock()
	if ok {
		return o, nil
	}
	var err error
	switch {
	case from == "":
		o = &origin{start: explore.DefaultStart(sec), query: url.Values{}}
	case isDrill:
		o, err = s.drillOrigin(ctx, p, d, q)
	default:
		o, err = s.counterexampleOrigin(ctx, p, mech, from)
	}
	if err != nil {
		return nil, err
	}
	s.states.mu.Lock()
	if len(s.states.origins) >= maxOrigins {
		clear(s.states.origins)
	}
	s.states.origins[key] = o
	s.states.mu.Unlock()
	return o, nil
}

// drillOrigin is a built-in drill's world and steps, with its parameters
// from the query, bounded as the drill page bounds them.
func (s *Server) drillOrigin(ctx context.Context, p *page, d *drills.Drill, q url.Values) (*origin, error) {
	values := d.Defaults()
	o := &origin{from: d.Name, query: url.Values{"from": {d.Name}}, link: "/drill/" + d.Name}
	link := url.Values{}
	for _, dp := range d.Params {
		raw := q.Get(dp.Name)
		if raw == "" {
			continue
		}
		n, err := strconv.Atoi(raw)
		if err != nil {
			return nil, &problem{http.StatusBadRequest, p.T("web.err.number", dp.Name, raw)}
		}
		values[dp.Name] = n
		o.query.Set(dp.Name, raw)
		link.Set(dp.Name, raw)
	}
	if len(link) > 0 {
		o.link += "?" + link.Encode()
	}
	// The world must be small enough for the page's replays: a larger
	// one is refused by the split that asks for it, before any work.
	b := s.budget
	if b.Keys <= 0 || b.Keys > MaxStateKeys { // zero: DefaultBudget's million
		b.Keys = MaxStateKeys
	}
	res, err := s.runDrillBudget(ctx, d, values, b)
	if status, msg, ok := s.runError(p, err); ok {
		return nil, &problem{status, msg}
	}
	var fe *drills.FileError
	if errors.As(err, &fe) && fe.Budget() {
		return nil, &problem{http.StatusUnprocessableEntity, p.T("web.state.err.too-large", b.Keys)}
	}
	if err != nil {
		return nil, &problem{http.StatusBadRequest, s.paramError(p, err, nil)}
	}
	return s.walkOrigin(o, d.Sec(), d.Strategy, res)
}

// counterexampleOrigin is a counterexample of the explorer's default
// scope, from=explore-MECH-STRATEGY: its emitted drill file, run.
func (s *Server) counterexampleOrigin(ctx context.Context, p *page, mech, from string) (*origin, error) {
	strategy, ok := strings.CutPrefix(from, "explore-"+mech+"-")
	if !ok {
		return nil, &problem{http.StatusNotFound, p.T("web.err.no-counterexample", mech, from)}
	}
	rep, err := s.report(ctx, mech)
	if err != nil {
		return nil, &problem{http.StatusServiceUnavailable, err.Error()}
	}
	i := slices.IndexFunc(rep.Strategies, func(st explore.Strategy) bool { return st.Name == strategy })
	if i < 0 || rep.Strategies[i].Shortest == nil {
		return nil, &problem{http.StatusNotFound, p.T("web.err.no-counterexample", mech, strategy)}
	}
	res, err := s.runCounterexample(ctx, rep.Strategies[i].Shortest)
	if err != nil {
		return nil, err
	}
	o := &origin{from: from, query: url.Values{"from": {from}}, link: "/explore/" + mech + "/" + strategy}
	return s.walkOrigin(o, rep.Sec, strategy, res)
}

// runCounterexample runs a counterexample's emitted drill file: the same
// run as its trace, with the calls a walk reads, under the server's budget.
func (s *Server) runCounterexample(ctx context.Context, c *explore.Counterexample) (*drills.Result, error) {
	src, err := c.Emit(i18n.EN)
	if err != nil {
		return nil, err
	}
	d, err := drills.ParseBudget(c.Name()+".txtar", []byte(src), s.budget)
	if err != nil {
		return nil, err
	}
	return s.runDrill(ctx, d, d.Defaults())
}

// walkOrigin reads a run as a path from its world.
func (s *Server) walkOrigin(o *origin, sec *harness.Section, strategy string, res *drills.Result) (*origin, error) {
	if len(sec.Strategies) == 0 && strategy != "" && !slices.Contains(explore.Mechanisms[sec].Strategies, strategy) {
		strategy = ""
	}
	calls, rows := res.CallSteps()
	w, err := explore.Branch(sec, strategy, calls, rows, nil)
	if err != nil {
		return nil, &problem{http.StatusInternalServerError, err.Error()}
	}
	o.start, o.path, o.walk = w.Start, w.Path, w
	return o, nil
}
