package ondemand

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"archlab/i18n"
)

// lockedBuffer is a bytes.Buffer the ticking goroutine writes while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestBuildTicksOnATerminal: a build a person watches keeps a line that
// counts its seconds and ends with how long it took (issue 34, point 3);
// without a terminal (CI, --json) it writes nothing. The test waits for
// the first tick however late a busy machine runs it (a fixed 1.1 s sleep
// missed it there), up to a minute.
func TestBuildTicksOnATerminal(t *testing.T) {
	var live lockedBuffer
	done := Tick(&live, i18n.EN, "building archlab-sqlite:")
	for deadline := time.Now().Add(time.Minute); !strings.Contains(live.String(), "building archlab-sqlite: 1 s") && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	done(true)
	out := live.String()
	if !strings.Contains(out, "building archlab-sqlite: 1 s") || !strings.Contains(out, "\r\x1b[2K") || !strings.Contains(out, "archlab: built in ") {
		t.Errorf("the live line: %q", out)
	}
	Tick(nil, i18n.EN, "x")(true) // no terminal: nothing to write to, nothing written
}
