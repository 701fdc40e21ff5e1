package explore

import (
	"fmt"
	"slices"
	"strings"

	"archlab/harness"
	"archlab/i18n"
)

// A state's path saves as a drill file: the world's declarations and the
// path's steps in the section's verbs, one a line, then the looks a reader
// takes (read an order, the checkpoint), the counters the section's
// invariants read, and a check per invariant as it stands in this state.
// `archlab drill --file` replays it to the same state, through the same
// Exec, and its checks fail exactly where the page shows a broken
// invariant: exit 1 for a state that breaks one, 0 for one that does not.

// fileSpec is what a section's saved path counts and checks.
type fileSpec struct {
	looks    []harness.Call // after the path, in [verdict]
	counters []fileCounter
	checks   []fileCheck
	binds    map[int]string // path call index → the name a step binds (-> r1)
}

// fileCounter is a counter that reads one observable, with at most one
// argument.
type fileCounter struct {
	name, obs string
	arg       any // nil: none
}

func (c fileCounter) expr() string {
	switch {
	case c.arg != nil:
		return fmt.Sprintf("%s = %s(%q)", c.name, c.obs, fmt.Sprint(c.arg))
	case c.obs != c.name:
		return c.name + " = " + c.obs
	}
	return c.name
}

// fileCheck is one check: its name, its expression, its words, the
// invariant it stands for, and whether this state breaks it. A check may
// be narrower than its invariant (§8.2 checks each message apart: m1 lost
// is not m2 lost), so breaks is the walker's to say, not the property's.
type fileCheck struct {
	name, expr string
	text       harness.Msg
	invariant  string
	breaks     bool
}

// breaksByInvariant marks each check broken where the state breaks its
// invariant: for checks that stand for the whole invariant.
func breaksByInvariant(checks []fileCheck, props []Property) {
	for i := range checks {
		checks[i].breaks = slices.ContainsFunc(props, func(p Property) bool { return p.Name == checks[i].invariant && p.Broken })
	}
}

// DrillFile writes the path as a drill file named name (a drill name:
// lowercase letters, digits and dashes). Its opening comment is in lang;
// its title and checks in every language.
func (s *State) DrillFile(lang i18n.Lang, name, url string) (string, error) {
	if !drillName(name) {
		return "", fmt.Errorf("explore: %q is not a drill name", name)
	}
	spec := s.w.file()
	var b strings.Builder
	comment := i18n.T(lang, harness.Plural("state.file.comment", len(s.Path)), s.Start.Section.Harness, len(s.Path), s.Start.Strategy, url)
	if len(s.Legend) > 0 {
		comment += "\n" + i18n.T(lang, "state.file.legend", strings.Join(s.Legend, " "))
	}
	for _, line := range strings.Split(comment, "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	sec := s.Start.Section
	fmt.Fprintf(&b, "drill %s\nsection %s\nharness %s\n", name, sec.ID, sec.Harness)
	if len(sec.Strategies) > 0 || s.Start.Strategy == harness.Student {
		fmt.Fprintf(&b, "strategy %s\n", s.Start.Strategy)
	}
	b.WriteString("-- steps --\n")
	for _, c := range s.Start.Decls {
		b.WriteString(callLine(sec, c, "") + "\n")
	}
	n := 0
	for i, st := range s.Path {
		fmt.Fprintf(&b, "# %d %s\n", i+1, st.Segment)
		for _, c := range st.Calls {
			b.WriteString(callLine(sec, c, spec.binds[n]) + "\n")
			n++
		}
	}
	if len(spec.looks) > 0 {
		b.WriteString("[verdict]\n")
		for _, c := range spec.looks {
			b.WriteString(callLine(sec, c, "") + "\n")
		}
	}
	b.WriteString("-- counters --\n")
	for _, c := range spec.counters {
		b.WriteString(c.expr() + "\n")
	}
	b.WriteString("-- checks --\n")
	for _, c := range spec.checks {
		fmt.Fprintf(&b, "%s: %s\n", c.name, c.expr)
	}
	b.WriteString("-- expect --\n")
	h := s.w.harness()
	for _, c := range spec.counters {
		var args []any
		if c.arg != nil {
			args = []any{c.arg}
		}
		v, err := h.Observe(c.obs, args)
		if err != nil {
			return "", fmt.Errorf("explore: save %s: counter %s: %w", name, c.name, err)
		}
		fmt.Fprintf(&b, "%s %s\n", c.name, harness.Format(v))
	}
	for _, l := range []i18n.Lang{i18n.EN, i18n.ZH} {
		fmt.Fprintf(&b, "-- %s --\n", l)
		fmt.Fprintf(&b, "title: %s\n", i18n.T(l, harness.Plural("state.file.title", len(s.Path)), s.Start.Section.Harness, len(s.Path), s.Start.Strategy))
		for _, c := range spec.checks {
			fmt.Fprintf(&b, "check %s: %s\n", c.name, i18n.T(l, c.text.Key, c.text.Args...))
		}
	}
	return b.String(), nil
}

// Checks names the checks DrillFile writes, each with whether this state
// breaks its invariant: a replay of the file fails exactly those.
func (s *State) Checks() (names []string, broken []bool) {
	spec := s.w.file()
	for _, c := range spec.checks {
		names = append(names, c.name)
		broken = append(broken, c.breaks)
	}
	return names, broken
}

// callLine writes a call as a drill-file line, as the parser reads it: the
// required arguments in order, an optional one as name=value, a choice as
// its bare word, then the binding.
func callLine(sec *harness.Section, c harness.Call, bind string) string {
	v, _ := sec.Verb(c.Verb)
	parts := []string{c.Verb}
	for _, a := range v.Args {
		val, ok := c.Args[a.Name]
		if !ok {
			continue
		}
		s := harness.Format(val)
		switch {
		case a.Kind == harness.Choice:
			parts = append(parts, s)
		case a.Optional:
			parts = append(parts, a.Name+"="+s)
		default:
			parts = append(parts, s)
		}
	}
	if bind != "" && v.Binds != nil {
		parts = append(parts, "->", bind)
	}
	return strings.Join(parts, " ")
}

// drillName reports whether name is a drill's name.
func drillName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' || strings.HasSuffix(name, "-") || strings.Contains(name, "--") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
