//go:build brokers

package natsbroker_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"archlab/adapters/broker"
	"archlab/adapters/broker/brokertest"
	"archlab/adapters/broker/natsbroker"
	"archlab/adapters/consumerproc"
	"archlab/drills"
	"archlab/harness"
	"archlab/internal/inbox"
)

// TestMain lets this test binary be the consumer process of --crash real.
func TestMain(m *testing.M) {
	if os.Getenv(consumerproc.ChildEnv) == "1" {
		os.Exit(consumerproc.Main())
	}
	os.Exit(m.Run())
}

// runSection runs every §8.2 drill with the book's parameters on conn, in
// env, and fails on any disagreement with the book.
func runSection(t *testing.T, conn *natsbroker.Conn, env func(d *drills.Drill) harness.InboxEnv) {
	t.Helper()
	list, err := drills.InSection("8.2")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		e := env(d)
		e.Broker = conn.NewInbox
		res, err := d.RunIn(d.Defaults(), harness.Env{Inbox: e})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if !res.Pass {
			t.Errorf("%s on nats: err=%v counters=%+v checks=%+v", d.Name, res.Err, res.Counters, res.Checks)
		}
	}
}

func memory(*drills.Drill) harness.InboxEnv { return harness.InboxEnv{} }

// TestSection82OnEmbeddedNATS: the §8.2 drills keep the book's counters on
// an in-process server, and leave no goroutine.
func TestSection82OnEmbeddedNATS(t *testing.T) {
	brokertest.NoGoroutineLeft(t, func() {
		srv, err := natsbroker.StartServer(-1)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		conn, err := natsbroker.Connect(t.Context(), srv)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		runSection(t, conn, memory)
	})
}

// TestSection82OnNATSWithSQLiteAndRealCrash: a real broker, a real
// database, a real kill.
func TestSection82OnNATSWithSQLiteAndRealCrash(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	brokertest.NoGoroutineLeft(t, func() {
		srv, err := natsbroker.StartServer(-1)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		conn, err := natsbroker.Connect(t.Context(), srv)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		dir := t.TempDir()
		runSection(t, conn, func(d *drills.Drill) harness.InboxEnv {
			path := filepath.Join(dir, d.Name+".db")
			return harness.InboxEnv{
				Open: func(onSQL func(harness.Statement)) (inbox.Store, error) {
					return consumerproc.OpenStore(path, onSQL)
				},
				Consumer: func() harness.Consumer {
					return &consumerproc.Spawner{Context: t.Context(), Command: []string{exe}, DB: path}
				},
			}
		})
	})
}

// TestSection82OnNATSByURL: a second embedded server, listening on a port,
// stands in for a class cluster reached by --nats-url. The run deletes
// the stream it created and leaves the server's other streams alone.
func TestSection82OnNATSByURL(t *testing.T) {
	brokertest.NoGoroutineLeft(t, func() {
		srv, err := natsbroker.StartServer(0)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		conn, err := natsbroker.Dial(t.Context(), srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		runSection(t, conn, memory)
		if n := conn.Streams(); n != 0 {
			t.Errorf("%d streams left on the server, want 0", n)
		}
	})
}

// TestUnreachableURL: nobody listens: one error, within 10 s.
func TestUnreachableURL(t *testing.T) {
	start := time.Now()
	_, err := natsbroker.Dial(context.Background(), "nats://127.0.0.1:1")
	var ue *broker.UnreachableError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want an UnreachableError", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v, want under 10 s (the dial's own limit, not the system's two minutes)", d)
	}
}
