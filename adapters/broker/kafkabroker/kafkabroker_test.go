//go:build brokers

package kafkabroker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"archlab/adapters/broker"
	"archlab/adapters/broker/brokertest"
	"archlab/adapters/broker/kafkabroker"
	"archlab/drills"
	"archlab/harness"
)

// runSection runs every §8.3 drill with the book's parameters on conn and
// fails on any disagreement with the book; then no topic of the runs is
// left.
func runSection(t *testing.T, conn *kafkabroker.Conn) {
	t.Helper()
	list, err := drills.InSection("8.3")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		res, err := d.RunIn(d.Defaults(), harness.Env{Ordering: harness.OrderingEnv{Broker: conn.NewOrdering}})
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if !res.Pass {
			t.Errorf("%s on kafka: err=%v counters=%+v checks=%+v", d.Name, res.Err, res.Counters, res.Checks)
		}
	}
	left, err := conn.Topics(kafkabroker.Prefix)
	if err != nil || len(left) > 0 {
		t.Errorf("topics left: %v %v", left, err)
	}
}

// TestSection83OnEmbeddedKafka: the §8.3 drills keep the book's counters
// on kfake, and leave no goroutine.
func TestSection83OnEmbeddedKafka(t *testing.T) {
	brokertest.NoGoroutineLeft(t, func() {
		c, err := kafkabroker.StartCluster()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conn, err := kafkabroker.Dial(t.Context(), c.Addrs(), "kafka (embedded)")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		runSection(t, conn)
	})
}

// TestSection83OnKafkaByBrokers: a cluster started apart, reached by its
// listening address as --kafka-brokers gives it.
func TestSection83OnKafkaByBrokers(t *testing.T) {
	brokertest.NoGoroutineLeft(t, func() {
		c, err := kafkabroker.StartCluster()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conn, err := kafkabroker.Dial(t.Context(), c.Addrs(), "kafka "+c.Addrs()[0])
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		runSection(t, conn)
	})
}

// TestUnreachableBrokers: nobody listens: one error, within 10 s.
func TestUnreachableBrokers(t *testing.T) {
	brokertest.NoGoroutineLeft(t, func() {
		start := time.Now()
		_, err := kafkabroker.Dial(context.Background(), []string{"127.0.0.1:1"}, "")
		var ue *broker.UnreachableError
		if !errors.As(err, &ue) {
			t.Fatalf("err = %v, want an UnreachableError", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v, want under 10 s (the dial's own limit, not the system's two minutes)", d)
		}
	})
}
