package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"archlab/i18n"
	"archlab/ui/web"
)

// hugeState is issue 37's URL: a state page of a world of a million keys,
// within the drill parameter's range.
const hugeState = "/explore/shardjob/state/?from=crash-resume&keys=1000000"

// slowState is a state page within the state pages' size that runs until
// the server's deadline: every step a commit, so many steps to replay.
const slowState = "/explore/shardjob/state/?from=crash-resume&keys=10000&shards=2&commit-every=1"

// cpuTime is this process's CPU time so far (getrusage): the server runs
// in it, so what it burns shows here, whatever the wall clock says.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// server is a real server of the pages; a request still running 30 s after
// the test is an error (the old code ran on, and Close waited for it).
func server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(web.New(i18n.EN))
	t.Cleanup(func() {
		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(30 * time.Second):
			t.Error("a request still running 30 s after the test ended")
		}
	})
	return srv
}

// TestStateTooLarge: a start too large for a state page's replays is
// refused with 422 and one line, before any work. Issue 37: it ran with
// no slot and no deadline, for hours of CPU.
func TestStateTooLarge(t *testing.T) {
	srv := server(t)
	client := &http.Client{Timeout: 10 * time.Second}
	before := cpuTime()
	resp, err := client.Get(srv.URL + hugeState)
	if err != nil {
		t.Fatalf("no answer within 10 s: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("status %d, want 422", resp.StatusCode)
	}
	if !strings.Contains(string(body), "a state page walks a world of at most 10000 keys") {
		t.Errorf("no line saying why:\n%s", body)
	}
	if used := cpuTime() - before; used > time.Second {
		t.Errorf("refusing it took %v of CPU; want it refused before any work", used)
	}
}

// TestStateStopsWhenClientGoes: a state page whose reader goes stops; the
// server's CPU is idle 2 s later (measured as this process's CPU time, the
// server's). Issue 37: the work went on, and on.
func TestStateStopsWhenClientGoes(t *testing.T) {
	srv := server(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+slowState, nil)
	done := make(chan struct{})
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		close(done)
	}()
	time.Sleep(time.Second)
	cancel()
	<-done
	time.Sleep(2 * time.Second)
	before := cpuTime()
	time.Sleep(time.Second)
	if used := cpuTime() - before; used > 150*time.Millisecond {
		t.Errorf("the server used %v of CPU in the second after 2 s after its client went; want it idle", used)
	}
}

// TestStateCrossSiteImages: four <img> tags of a page on another port
// naming a state page are refused at once (Fetch Metadata: a resource of
// another site), and the server does not grow. Issue 37: they grew it to
// 1.6 GB.
func TestStateCrossSiteImages(t *testing.T) {
	srv := server(t)
	client := &http.Client{Timeout: 10 * time.Second}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	heap := m.HeapAlloc
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := range codes {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+hugeState+"&img="+string(rune('a'+i)), nil)
			req.Header.Set("Sec-Fetch-Site", "same-site")
			req.Header.Set("Sec-Fetch-Mode", "no-cors")
			req.Header.Set("Sec-Fetch-Dest", "image")
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusForbidden {
			t.Errorf("image %d: status %d, want 403", i, c)
		}
	}
	runtime.ReadMemStats(&m)
	if grown := int64(m.HeapAlloc) - int64(heap); grown > 50<<20 {
		t.Errorf("the heap grew by %d MB", grown>>20)
	}
}
