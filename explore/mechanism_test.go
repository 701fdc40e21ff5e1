package explore

import (
	"testing"

	"archlab/harness"
)

// TestEverySectionHasAMechanism: the explorer's table has a whole row for
// every section of the book, so a new section fails here, by name.
func TestEverySectionHasAMechanism(t *testing.T) {
	for _, sec := range harness.Sections {
		m, ok := Mechanisms[sec]
		switch {
		case !ok:
			t.Errorf("§%s (%s): no row in Mechanisms", sec.ID, sec.Harness)
		case len(m.Strategies) == 0 || m.Explore == nil || m.model == nil || m.world == nil || m.coded == nil:
			t.Errorf("§%s (%s): its row lacks a field: %+v", sec.ID, sec.Harness, *m)
		}
	}
}
