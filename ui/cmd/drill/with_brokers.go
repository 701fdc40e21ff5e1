//go:build brokers

package drill

import (
	"context"
	"errors"
	"strings"

	"archlab/adapters/broker"
	"archlab/adapters/broker/kafkabroker"
	"archlab/adapters/broker/natsbroker"
	"archlab/drills"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// This file is the broker wiring that needs the real brokers: the
// embedded nats-server and franz-go's kfake, and their clients. They are
// a minute of compiling on a fresh clone and a third of archlab's start-up,
// so only the archlab built with -tags brokers has them; the everyday
// archlab hands --broker nats|kafka to that one (ui/cli/parts.go).
func init() { openRealBroker = openBrokers; cli.Link("brokers") }

// brokers is one invocation's real broker.
type brokers struct {
	natsSrv  *natsbroker.Server
	nats     *natsbroker.Conn
	kafkaSrv *kafkabroker.Cluster
	kafka    *kafkabroker.Conn
	kind     string // "nats", "kafka"
	addr     string // "" for the embedded server
}

// openBrokers starts or reaches the chosen broker. Ctrl-C (ctx) while it
// dials or starts is exit 130 at once: the dial goes on in the background
// and whatever it opens is closed.
func openBrokers(ctx context.Context, g *cli.Env, o brokerOptions) (brokerRun, error) {
	type opened struct {
		b   *brokers
		err error
	}
	done := make(chan opened, 1)
	go func() {
		b, err := dial(ctx, g, o)
		done <- opened{b, err}
	}()
	interrupted := &status.Interrupted{Msg: g.T("err.interrupted.dial", o.broker)}
	var r opened
	select {
	case r = <-done:
	case <-ctx.Done():
		go func() { (<-done).b.close() }()
		interrupted.Code = status.SignalStatus(ctx)
		return nil, interrupted
	}
	if status.StoppedBySignal(ctx) { // the dial ended because of Ctrl-C
		r.b.close()
		interrupted.Code = status.SignalStatus(ctx)
		return nil, interrupted
	}
	if r.err != nil {
		r.b.close()
		var ue *broker.UnreachableError
		if errors.As(r.err, &ue) {
			why := redactIn(cli.FirstLine(ue.Err.Error()), o.natsURL)
			return nil, &status.CouldNotRun{Msg: g.T("err.broker.unreachable", ue.Broker, redactURL(ue.Addr), why),
				Hint: g.T("err.broker.unreachable-hint")}
		}
		return nil, &status.CouldNotRun{Msg: redactIn(r.err.Error(), o.natsURL)}
	}
	return r.b, nil
}

// dial starts the embedded server or connects to the reader's. On error
// the returned brokers holds what was opened, for close.
func dial(ctx context.Context, g *cli.Env, o brokerOptions) (*brokers, error) {
	b := &brokers{kind: o.broker}
	var err error
	switch o.broker {
	case "nats":
		if o.natsGiven {
			b.addr = redactURL(o.natsURL)
			b.nats, err = natsbroker.Dial(ctx, o.natsURL)
			break
		}
		if b.natsSrv, err = natsbroker.StartServer(-1); err == nil {
			b.nats, err = natsbroker.Connect(ctx, b.natsSrv)
		}
	case "kafka":
		if o.kafkaGiven {
			seeds := strings.Split(o.kafkaBrokers, ",")
			for i := range seeds {
				seeds[i] = strings.TrimSpace(seeds[i])
			}
			b.addr = strings.Join(seeds, ",")
			b.kafka, err = kafkabroker.Dial(ctx, seeds, "kafka "+b.addr)
			break
		}
		if b.kafkaSrv, err = kafkabroker.StartCluster(); err == nil {
			b.kafka, err = kafkabroker.Dial(ctx, b.kafkaSrv.Addrs(), "kafka (embedded)")
		}
	}
	return b, err
}

func (b *brokers) env(d *drills.Drill, env *harness.Env) {
	switch {
	case b.nats != nil && d.Sec() == brokerSection["nats"]:
		env.Inbox.Broker = b.nats.NewInbox
	case b.kafka != nil && d.Sec() == brokerSection["kafka"]:
		env.Ordering.Broker = b.kafka.NewOrdering
	}
}

func (b *brokers) where() (kind, addr string) { return b.kind, b.addr }

func (b *brokers) close() {
	if b == nil {
		return
	}
	if b.nats != nil {
		b.nats.Close()
	}
	if b.natsSrv != nil {
		b.natsSrv.Close()
	}
	if b.kafka != nil {
		b.kafka.Close()
	}
	if b.kafkaSrv != nil {
		b.kafkaSrv.Close()
	}
}
