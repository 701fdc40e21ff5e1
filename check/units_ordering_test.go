package check

import (
	"errors"
	"testing"

	"archlab/harness"
)

// TestProjectionUnitsCanFail: each of the book's unit cases passes on the
// book's mechanism and fails, with a catalogue text, for at least one
// known-wrong projection: a unit check that cannot fail checks nothing.
func TestProjectionUnitsCanFail(t *testing.T) {
	for _, u := range projectionUnits {
		t.Run(u.Name, func(t *testing.T) {
			if err := u.Run(Book()); err != nil {
				t.Fatalf("the book's mechanism fails: %v", err)
			}
			var caught []string
			for _, v := range wrongProjection {
				err := u.Run(&harness.Students{Projection: v.f.mechanism()})
				var f *UnitFailure
				if errors.As(err, &f) {
					caught = append(caught, v.name)
				} else if err != nil {
					t.Errorf("%s: not a unit failure: %v", v.name, err)
				}
			}
			if len(caught) == 0 {
				t.Fatal("no wrong variant fails it")
			}
			t.Logf("%s fails for %v", u.Name, caught)
		})
	}
}
