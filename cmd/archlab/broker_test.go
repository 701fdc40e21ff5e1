//go:build brokers

package main

import (
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"archlab/adapters/broker/brokertest"
	"archlab/adapters/broker/kafkabroker"
	"archlab/adapters/broker/natsbroker"
)

// TestDrillOnBroker: the drills of a section print on a real broker what
// they print on the model, byte for byte (the book's counters, the same
// lessons), but for the line, or the JSON field, that names the broker;
// and leave no goroutine behind (in a test binary built with -tags
// brokers; this one hands the run to the archlab built with it).
func TestDrillOnBroker(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		broker string // as the header and --json name it
	}{
		{"8.2 on nats", []string{"drill", "--chapter", "8.2", "--broker", "nats"}, "nats (embedded)"},
		{"8.2 on nats, sqlite, real crash", []string{"drill", "--chapter", "8.2", "--broker", "nats", "--store", "sqlite", "--crash", "real"}, "nats (embedded)"},
		{"ack-lost on nats, json", []string{"drill", "ack-lost", "--broker", "nats", "--json"}, "nats (embedded)"},
		{"8.3 on kafka", []string{"drill", "--chapter", "8.3", "--broker", "kafka"}, "kafka (embedded)"},
		{"8.3 on kafka, json", []string{"drill", "--chapter", "8.3", "--broker", "kafka", "--json"}, "kafka (embedded)"},
		{"replay on kafka, trace", []string{"drill", "replay", "--broker", "kafka", "--trace"}, "kafka (embedded)"},
	} {
		// os/signal starts its one loop goroutine at the first Notify of
		// the process and keeps it: start it before counting.
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGUSR2)
		signal.Stop(c)
		t.Run(tc.name, func(t *testing.T) {
			memArgs := withoutBroker(tc.args)
			want, _, _ := runCLI(t, nil, memArgs...)
			brokertest.NoGoroutineLeft(t, func() {
				out, errOut, code := runCLI(t, nil, tc.args...)
				if code != 0 {
					t.Fatalf("exit %d\n%s%s", code, out, errOut)
				}
				line, field := "on the broker: "+tc.broker+"\n", `"broker": "`+tc.broker+`"`
				if n := strings.Count(out, line) + strings.Count(out, field); n == 0 {
					t.Errorf("the output does not name the broker (%q):\n%s", tc.broker, out)
				}
				out = strings.Replace(out, line, "", 1)
				out = strings.ReplaceAll(out, field, `"broker": "memory"`)
				if out != want {
					t.Errorf("on the broker:\n%s\non the model:\n%s", out, want)
				}
			})
		})
	}
}

// withoutBroker drops "--broker X" from args.
func withoutBroker(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--broker" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// TestDrillOnBrokerByAddress: a server started apart, on a port, stands in
// for a class cluster; --nats-url and --kafka-brokers reach it, and the
// output says which (in the reader's language).
func TestDrillOnBrokerByAddress(t *testing.T) {
	t.Run("nats-url", func(t *testing.T) {
		srv, err := natsbroker.StartServer(0)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		out, errOut, code := runCLI(t, nil, "drill", "--chapter", "8.2", "--broker", "nats", "--nats-url", srv.URL())
		if code != 0 || !strings.Contains(out, " 0 fail") || !strings.HasPrefix(out, "on the broker: nats at "+srv.URL()+"\n") {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("kafka-brokers", func(t *testing.T) {
		c, err := kafkabroker.StartCluster()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		addrs := strings.Join(c.Addrs(), ",")
		out, errOut, code := runCLI(t, nil, "drill", "--chapter", "8.3", "--broker", "kafka", "--kafka-brokers", addrs, "--lang", "zh")
		if code != 0 || !strings.Contains(out, "0 个失败") || !strings.HasPrefix(out, "消息代理：kafka，地址 "+addrs+"\n") {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
	})
}

// TestBrokerUnreachable: an address nobody listens on is one line (and a
// hint), exit 3, within 3 s. A password or token in the URL is never
// printed.
func TestBrokerUnreachable(t *testing.T) {
	variantReady(t, "brokers") // the 3 s are the dial's, not the first build's
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://127.0.0.1:1"}, exitCouldNotRun, "cannot reach the nats broker at nats://127.0.0.1:1: "},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", "127.0.0.1:1"}, exitCouldNotRun, "cannot reach the kafka broker at 127.0.0.1:1: "},
		// An address that may not answer at all (no route, or a dial that
		// hangs): still one line within 10 s.
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://10.255.255.1:4222"}, exitCouldNotRun, "cannot reach the nats broker at nats://10.255.255.1:4222: "},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", "10.255.255.1:9092"}, exitCouldNotRun, "cannot reach the kafka broker at 10.255.255.1:9092: "},
		// Issue 25: credentials in a URL are not printed.
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://alice:s3cret@127.0.0.1:1"}, exitCouldNotRun, "cannot reach the nats broker at nats://alice:xxxxx@127.0.0.1:1: "},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://t0ken@127.0.0.1:1"}, exitCouldNotRun, "cannot reach the nats broker at nats://xxxxx@127.0.0.1:1: "},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			start := time.Now()
			out, errOut, code := runCLI(t, nil, tc.args...)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v, want under 10 s (the dial's own limit, not the system's two minutes)", d)
			}
			first, _, _ := strings.Cut(errOut, "\n")
			if code != tc.code || !strings.Contains(first, tc.want) || out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit %d and %q", code, errOut, out, tc.code, tc.want)
			}
			if strings.Contains(errOut, "s3cret") || strings.Contains(errOut, "t0ken") {
				t.Errorf("a secret on stderr: %q", errOut)
			}
		})
	}
}

// TestBrokerDialInterrupt: Ctrl-C while archlab dials the reader's broker
// (here a server that accepts the connection and never answers) is exit
// 130 with one line, at once, not "could not run" when the dial gives up
// (issue 25).
func TestBrokerDialInterrupt(t *testing.T) {
	variantReady(t, "brokers")
	for _, tc := range []struct{ broker, flag, scheme string }{
		{"nats", "--nats-url", "nats://"},
		{"kafka", "--kafka-brokers", ""},
	} {
		t.Run(tc.broker, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan net.Conn, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					accepted <- c
				}
			}()
			drill := map[string]string{"nats": "ack-lost", "kafka": "replay"}[tc.broker]
			cmd := archlabCmd(t, "drill", drill, "--broker", tc.broker, tc.flag, tc.scheme+ln.Addr().String())
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case c := <-accepted:
				defer c.Close()
			case err := <-done:
				t.Fatalf("archlab ended before it dialled: %v\n%s", err, stderr.String())
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("archlab did not dial in 20 s")
			}
			cmd.Process.Signal(os.Interrupt)
			code := exitStatus(t, <-done)
			want := "archlab: interrupted while reaching the " + tc.broker + " broker: no drill ran\n"
			if code != exitInterrupted || stderr.String() != want {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr.String(), exitInterrupted, want)
			}
		})
	}
}

// TestBrokerInterrupt: Ctrl-C in the middle of a drill on the reader's own
// server exits 130 and leaves nothing there: the run's stream is deleted
// before archlab exits. The drill is long (999 lost acks, each costing one
// AckWait), and the signal goes out once the stream exists on the server.
func TestBrokerInterrupt(t *testing.T) {
	variantReady(t, "brokers")
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
	cmd := archlabCmd(t, "drill", "ack-lost", "--deliveries", "1000", "--broker", "nats", "--nats-url", srv.URL())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); conn.Streams() == 0; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the drill created no stream in 20 s")
		}
		time.Sleep(5 * time.Millisecond) // polling the server: the event is the stream appearing
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := exitStatus(t, cmd.Wait()); code != exitInterrupted {
		t.Errorf("exit %d, want %d; stderr %q", code, exitInterrupted, stderr.String())
	}
	if n := conn.Streams(); n != 0 {
		t.Errorf("%d streams left on the server after Ctrl-C, want 0", n)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr %q, want it to say interrupted", stderr.String())
	}
}
