package main

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"archlab/adapters/broker"
	"archlab/adapters/broker/kafkabroker"
	"archlab/adapters/broker/natsbroker"
	"archlab/drills"
	"archlab/harness"
)

// brokerOptions are the flags that put a section's broker on a real one:
// --broker memory|nats|kafka, --nats-url URL, --kafka-brokers host:port,…
type brokerOptions struct {
	broker       string
	natsURL      string
	kafkaBrokers string
}

// The sections each real broker runs: NATS JetStream delivers §8.2's
// messages, Kafka carries §8.3's queue, DLQ and log.
var brokerSection = map[string]string{"nats": "8.2", "kafka": "8.3"}

// addBrokerFlags registers the broker flags: all of them on the drill
// command (--all, --chapter, --file), and on a drill subcommand --broker
// and the URL flag of the broker its section takes.
func addBrokerFlags(f *pflag.FlagSet, g *globalOptions, o *brokerOptions, d *drills.Drill) {
	f.StringVar(&o.broker, "broker", "memory", g.t("help.flag.broker"))
	if d == nil || d.Section == brokerSection["nats"] {
		f.StringVar(&o.natsURL, "nats-url", "", g.t("help.flag.nats-url"))
	}
	if d == nil || d.Section == brokerSection["kafka"] {
		f.StringVar(&o.kafkaBrokers, "kafka-brokers", "", g.t("help.flag.kafka-brokers"))
	}
}

// brokers is one invocation's real broker: an embedded server started for
// it, or a connection to the reader's own, closed at the end.
type brokers struct {
	natsSrv   *natsbroker.Server
	nats      *natsbroker.Conn
	kafkaSrv  *kafkabroker.Cluster
	kafka     *kafkabroker.Conn
	runBroker string
}

// checkBroker refuses a broker the drills about to run do not take: one
// line saying which drills take which broker (exit 2).
func checkBroker(g *globalOptions, o brokerOptions, list []*drills.Drill) error {
	switch {
	case o.broker != "memory" && o.broker != "nats" && o.broker != "kafka":
		return &usageError{msg: g.t("err.broker", o.broker)}
	case o.natsURL != "" && o.broker != "nats":
		return &usageError{msg: g.t("err.broker.url-needs", "--nats-url", "nats")}
	case o.kafkaBrokers != "" && o.broker != "kafka":
		return &usageError{msg: g.t("err.broker.url-needs", "--kafka-brokers", "kafka")}
	case o.broker == "memory":
		return nil
	}
	for _, d := range list {
		if d.Section != brokerSection[o.broker] {
			return &usageError{msg: g.t("err.broker.section", o.broker, d.Name, d.Section)}
		}
	}
	return nil
}

// openBroker starts or reaches the chosen broker. The embedded servers
// start only here, only when chosen: a memory run loads none of them.
func openBroker(ctx context.Context, g *globalOptions, o brokerOptions) (*brokers, error) {
	b := &brokers{runBroker: o.broker}
	var err error
	switch o.broker {
	case "nats":
		if o.natsURL != "" {
			b.nats, err = natsbroker.Dial(ctx, o.natsURL)
			break
		}
		if b.natsSrv, err = natsbroker.StartServer(-1); err == nil {
			b.nats, err = natsbroker.Connect(ctx, b.natsSrv)
		}
	case "kafka":
		if o.kafkaBrokers != "" {
			seeds := strings.Split(o.kafkaBrokers, ",")
			b.kafka, err = kafkabroker.Dial(ctx, seeds, "kafka "+o.kafkaBrokers)
			break
		}
		if b.kafkaSrv, err = kafkabroker.StartCluster(); err == nil {
			b.kafka, err = kafkabroker.Dial(ctx, b.kafkaSrv.Addrs(), "kafka (embedded)")
		}
	}
	if err != nil {
		b.close()
		var ue *broker.UnreachableError
		if errors.As(err, &ue) {
			return nil, &couldNotRunError{msg: g.t("err.broker.unreachable", ue.Broker, ue.Addr, firstLine(ue.Err.Error())),
				hint: g.t("err.broker.unreachable-hint")}
		}
		return nil, &couldNotRunError{msg: err.Error()}
	}
	return b, nil
}

// env puts the broker in drill d's Env.
func (b *brokers) env(d *drills.Drill, env *harness.Env) {
	if b == nil {
		return
	}
	switch {
	case b.nats != nil && d.Section == brokerSection["nats"]:
		env.Inbox.Broker = b.nats.NewInbox
	case b.kafka != nil && d.Section == brokerSection["kafka"]:
		env.Ordering.Broker = b.kafka.NewOrdering
	}
}

// close closes the connections, then the embedded servers.
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

// brokerFailure is a drill the broker stopped (it went away, it refused an
// operation): "could not run" (exit 3), not a drill that disagrees with
// the book.
func brokerFailure(g *globalOptions, res *drills.Result) error {
	if res == nil || !harness.IsBrokerError(res.Err) {
		return nil
	}
	return &couldNotRunError{msg: g.t("err.env.run", res.Drill.Name, firstLine(res.Err.Error()))}
}

// openBroker opens the chosen broker for the stores; Ctrl-C from here on
// cancels the run's context, so the broker's calls return and the
// embedded server is shut down before archlab exits. On failure it
// undoes what openStores prepared.
func (s *stores) openBroker() (*stores, error) {
	if s.o.broker.broker == "memory" || s.o.broker.broker == "" {
		return s, nil
	}
	if s.ctx == nil {
		s.ctx, s.stop = signalContext(context.Background())
	}
	b, err := openBroker(s.ctx, s.g, s.o.broker)
	if err != nil {
		failed := err
		s.close(s.g, &failed)
		return nil, err
	}
	s.brokers = b
	return s, nil
}
