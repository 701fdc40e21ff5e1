package ondemand

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"archlab/i18n"
)

// TestBuildTicksOnATerminal: a build a person watches keeps a line that
// counts its seconds and ends with how long it took (issue 34, point 3);
// without a terminal (CI, --json) it writes nothing.
func TestBuildTicksOnATerminal(t *testing.T) {
	var live bytes.Buffer
	done := Tick(&live, i18n.EN, "building archlab-sqlite:")
	time.Sleep(1100 * time.Millisecond)
	done(true)
	out := live.String()
	if !strings.Contains(out, "building archlab-sqlite: 1 s") || !strings.Contains(out, "\r\x1b[2K") || !strings.Contains(out, "archlab: built in ") {
		t.Errorf("the live line: %q", out)
	}
	Tick(nil, i18n.EN, "x")(true) // no terminal: nothing to write to, nothing written
}
