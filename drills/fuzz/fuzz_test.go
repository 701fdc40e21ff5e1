package fuzz

import (
	"errors"
	"testing"

	"archlab/drills"
)

const okFile = `# ok
drill tiny
section 8.2
-- steps --
message pay:evt-1
deliver pay:evt-1
-- counters --
effects
-- checks --
once: effects == 1
`

// FuzzParse: whatever the bytes, Parse returns a drill or a *drills.FileError,
// never panics, and a file that parses runs or fails without panicking.
func FuzzParse(f *testing.F) {
	for _, d := range drills.All() {
		src, err := drills.Source(d)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(okFile))
	f.Add([]byte("drill x\nsection 8.3\n-- steps --\nrepeat 3 as i publish e{i}\n-- counters --\ndlq\n-- checks --\na: dlq == 0 ? true : false\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := drills.Parse("fuzz.txtar", data)
		if err != nil {
			var fe *drills.FileError
			if !errors.As(err, &fe) || fe.Msg == "" {
				t.Fatalf("not a *drills.FileError with a message: %v", err)
			}
			return
		}
		if d.Name == "" || d.Section == "" {
			t.Fatalf("parsed without a name or a section: %+v", d)
		}
	})
}
