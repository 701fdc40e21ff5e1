package explore

import (
	"context"
	"slices"

	"archlab/harness"
)

// Mechanism is what the explorer knows of one section of the book. Every
// question the explorer answers per section is a field here, never a
// switch on the section's name: a new section is one more row.
type Mechanism struct {
	// Strategies are the explorer's, in the order its report lists them.
	Strategies []string
	// Explore walks the section's default scope.
	Explore func(context.Context, Options) (*Report, error)

	states bool                         // it has a state graph (EngineFor)
	model  *model                       // its state pages
	world  func() []harness.Call        // DefaultStart's declarations
	coded  func(*harness.Students) bool // the student's code has this section
}

// Mechanisms has a row for each section the explorer walks.
var Mechanisms = map[*harness.Section]*Mechanism{
	&harness.InboxSection: {
		Strategies: names(inboxStrategies),
		Explore:    func(ctx context.Context, o Options) (*Report, error) { return Inbox(ctx, DefaultInbox, o) },
		states:     true,
		model:      &inboxModel,
		world:      inboxDecls,
		coded:      func(s *harness.Students) bool { return s.Inbox != nil },
	},
	&harness.OrderingSection: {
		Strategies: names(orderingStrategies),
		Explore:    func(ctx context.Context, o Options) (*Report, error) { return Ordering(ctx, DefaultOrdering, o) },
		states:     true,
		model:      &orderingModel,
		world:      orderingDecls,
		coded:      func(s *harness.Students) bool { return s.Ordering != nil },
	},
	&harness.ShardjobSection: {
		Strategies: names(shardjobStrategies),
		Explore:    func(ctx context.Context, o Options) (*Report, error) { return Shardjob(ctx, DefaultShardjob, o) },
		model:      &shardModel,
		world:      shardDecls,
		coded:      func(s *harness.Students) bool { return s.Shardjob != nil },
	},
}

// bookStrategy is one of a section's strategies as the explorer walks it,
// and whether the book teaches it safe.
type bookStrategy struct {
	name string
	safe bool
}

func names(ss []bookStrategy) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.name
	}
	return out
}

// EngineFor is the engine sec's scope is walked with under o: a section
// with no state graph, and every sample, schedule by schedule; the others
// through their states unless o says enumerate. The command names its
// progress by it (states or schedules).
func EngineFor(sec *harness.Section, o Options) Engine {
	if m, ok := Mechanisms[sec]; ok && !m.states {
		return EngineEnumerate
	}
	return o.engine()
}

// StateStrategies are the strategies a start in sec may name: the
// explorer's, then the section's others (§8.2's ack-before-effect, which
// one drill runs and the explorer's table leaves out), then the student's
// when students has the section's code.
func StateStrategies(sec *harness.Section, students *harness.Students) []string {
	m, ok := Mechanisms[sec]
	if !ok {
		return nil
	}
	out := slices.Clone(m.Strategies)
	for _, s := range sec.Strategies {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if students != nil && m.coded(students) {
		out = append(out, harness.Student)
	}
	return out
}

// DefaultStart is the explorer's default scope as a state page's start:
// §8.2's messages, §8.3's events with a retry budget of 3 and the source
// of truth, §11.2's keys in one shard.
func DefaultStart(sec *harness.Section) Start {
	st := Start{Section: sec}
	if m, ok := Mechanisms[sec]; ok {
		st.Decls = m.world()
	}
	return st
}
