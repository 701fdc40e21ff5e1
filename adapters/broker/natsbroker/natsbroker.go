//go:build brokers

// Package natsbroker is §8.2's broker on NATS JetStream: the drills'
// deliveries, lost acks and redeliveries happen on a real stream.
//
// The rule it shows: a message the consumer does not ack comes back after
// the consumer's AckWait, and the broker counts every delivery
// (NumDelivered). A lost ack here is an ack never sent; the redelivery is
// the server's own.
package natsbroker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"archlab/adapters/broker"
	"archlab/harness"
	"archlab/internal/inbox"
)

// AckWait is how long the server waits for an ack before it redelivers: a
// lost ack costs one AckWait.
const AckWait = 100 * time.Millisecond

// opTimeout bounds every call to the server; DialTimeout the connection,
// which may take it twice (the TCP dial, then the server's INFO line):
// an address that does not answer is reported within 3 s.
const (
	opTimeout   = 5 * time.Second
	DialTimeout = 1200 * time.Millisecond
)

// Server is an embedded nats-server with JetStream on memory storage.
type Server struct {
	ns  *server.Server
	dir string
}

// StartServer starts an embedded server. port < 0: it does not listen
// (clients connect in-process); port 0: a free port on 127.0.0.1.
// It never installs signal handlers: Ctrl-C stays the command's.
func StartServer(port int) (*Server, error) {
	dir, err := os.MkdirTemp("", "archlab-nats-")
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName: "archlab", JetStream: true, StoreDir: dir,
		JetStreamMaxMemory: 64 << 20, JetStreamMaxStore: 64 << 20,
		NoSigs: true, NoLog: true, Host: "127.0.0.1", Port: port,
		DontListen: port < 0,
	}
	if port == 0 {
		opts.Port = server.RANDOM_PORT
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		os.RemoveAll(dir)
		return nil, &broker.UnreachableError{Broker: "nats", Addr: "embedded", Err: err}
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) { // a loaded 2-core machine takes its time
		ns.Shutdown()
		ns.WaitForShutdown()
		os.RemoveAll(dir)
		return nil, &broker.UnreachableError{Broker: "nats", Addr: "embedded", Err: errors.New("not ready in time")}
	}
	return &Server{ns: ns, dir: dir}, nil
}

// URL is where a client on this machine reaches the server.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Close shuts the server down and waits for it.
func (s *Server) Close() error {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	return os.RemoveAll(s.dir)
}

// Conn is one invocation's connection: to an embedded server in-process,
// or to a server by URL.
type Conn struct {
	ctx  context.Context
	nc   *nats.Conn
	js   jetstream.JetStream
	desc string // "nats (embedded)", "nats nats://host:4222"
}

// Connect connects in-process to s.
func Connect(ctx context.Context, s *Server) (*Conn, error) {
	nc, err := nats.Connect("", nats.InProcessServer(s.ns), nats.NoReconnect())
	if err != nil {
		return nil, &broker.UnreachableError{Broker: "nats", Addr: "embedded", Err: err}
	}
	return newConn(ctx, nc, "nats (embedded)", "embedded")
}

// Dial connects to the server at url; it gives up after DialTimeout.
func Dial(ctx context.Context, url string) (*Conn, error) {
	nc, err := nats.Connect(url, nats.Timeout(DialTimeout), nats.NoReconnect(), nats.Name("archlab"))
	if err != nil {
		return nil, &broker.UnreachableError{Broker: "nats", Addr: url, Err: err}
	}
	return newConn(ctx, nc, "nats "+url, url)
}

func newConn(ctx context.Context, nc *nats.Conn, desc, addr string) (*Conn, error) {
	js, err := jetstream.New(nc)
	if err == nil {
		// A server without JetStream answers here, not at the first drill.
		c, cancel := context.WithTimeout(ctx, DialTimeout)
		_, err = js.AccountInfo(c)
		cancel()
	}
	if err != nil {
		nc.Close()
		return nil, &broker.UnreachableError{Broker: "nats", Addr: addr, Err: fmt.Errorf("JetStream: %w", err)}
	}
	return &Conn{ctx: ctx, nc: nc, js: js, desc: desc}, nil
}

// Close closes the connection.
func (c *Conn) Close() { c.nc.Close() }

// NewInbox creates one run's stream, named uniquely; Close deletes it and
// its consumers, and touches nothing else on the server.
func (c *Conn) NewInbox() (harness.InboxBroker, error) {
	id := nuid.Next()
	b := &Inbox{c: c, stream: "ARCHLAB_" + id, subject: "archlab." + id, msgs: map[string]*msgState{}}
	// Ctrl-C does not cut the creation short: a request cancelled after
	// the server made the stream, before its answer came, left the stream
	// there with no Inbox to delete it (TestBrokerInterrupt, one run in
	// four on a loaded machine). It finishes, and the Inbox's Close
	// deletes the stream; if it fails all the same, the stream is deleted
	// by its name in case the server made it.
	ctx, cancel := b.uncancelled()
	defer cancel()
	s, err := c.js.CreateStream(ctx, jetstream.StreamConfig{
		Name: b.stream, Subjects: []string{b.subject + ".>"}, Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		b.Close()
		return nil, b.err("create stream "+b.stream, err)
	}
	b.s = s
	return b, nil
}

func (c *Conn) op() (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.ctx, opTimeout)
}

// Inbox is one §8.2 run's broker: a stream holding the run's messages and,
// per message, a pull consumer filtered on its subject, with explicit acks
// and AckWait. One consumer per message keeps the scenario's order of
// deliveries, whatever the other messages' acks.
type Inbox struct {
	c       *Conn
	s       jetstream.Stream
	stream  string
	subject string
	msgs    map[string]*msgState
	acks    int
}

type msgState struct {
	n       int    // the message's number in this run
	seq     uint64 // its stream sequence
	cons    jetstream.Consumer
	gen     int // consumers created for it: a replay is a new one
	base    int // deliveries made by its earlier consumers
	last    int // NumDelivered of its current consumer
	pending jetstream.Msg
	acked   bool
}

// Name is how --trace names the broker.
func (b *Inbox) Name() string { return b.c.desc }

// Deliver publishes m on its first call; then it fetches m from its
// consumer: the server's redelivery, after AckWait, of an unacked m. An
// acked m is read again by a new consumer that starts at its stream
// sequence: a seek back.
func (b *Inbox) Deliver(m inbox.Message, _ bool) (int, error) {
	st, ok := b.msgs[m.String()]
	if !ok {
		st = &msgState{n: len(b.msgs) + 1}
		ctx, cancel := b.c.op()
		ack, err := b.c.js.Publish(ctx, b.subj(st), []byte(m.String()))
		cancel()
		if err != nil {
			return 0, b.err("publish "+m.String(), err)
		}
		st.seq = ack.Sequence
		b.msgs[m.String()] = st
	}
	if st.cons == nil || st.acked {
		if err := b.seek(st); err != nil {
			return 0, b.err("consumer for "+m.String(), err)
		}
	}
	ctx, cancel := b.c.op()
	defer cancel()
	batch, err := st.cons.Fetch(1, jetstream.FetchContext(ctx))
	if err != nil {
		return 0, b.err("deliver "+m.String(), err)
	}
	var got jetstream.Msg
	for msg := range batch.Messages() { // drained to the end: Fetch leaves nothing running
		got = msg
	}
	if got == nil {
		err := batch.Error()
		if err == nil {
			err = errors.New("no delivery within " + opTimeout.String())
		}
		return 0, b.err("deliver "+m.String(), err)
	}
	meta, err := got.Metadata()
	if err != nil {
		return 0, b.err("deliver "+m.String(), err)
	}
	st.pending, st.last = got, int(meta.NumDelivered)
	return st.base + st.last, nil
}

// seek replaces m's consumer with one that starts at m's stream sequence.
func (b *Inbox) seek(st *msgState) error {
	ctx, cancel := b.c.op()
	defer cancel()
	if st.cons != nil {
		if err := b.s.DeleteConsumer(ctx, st.cons.CachedInfo().Name); err != nil {
			return err
		}
	}
	st.gen++
	st.base += st.last
	st.last, st.acked = 0, false
	cons, err := b.s.CreateConsumer(ctx, jetstream.ConsumerConfig{
		Name:          "m" + strconv.Itoa(st.n) + "-" + strconv.Itoa(st.gen),
		FilterSubject: b.subj(st),
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: st.seq,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: AckWait, MaxDeliver: -1,
	})
	st.cons = cons
	return err
}

// Ack acks m's last delivery and waits for the server to confirm it; a
// lost ack is not sent at all, and the server redelivers after AckWait.
func (b *Inbox) Ack(m inbox.Message, lost bool) error {
	b.acks++
	st, ok := b.msgs[m.String()]
	if !ok || st.pending == nil {
		return b.err("ack "+m.String(), errors.New("not delivered"))
	}
	if lost {
		return inbox.ErrAckLost
	}
	if st.acked {
		// A late holder's ack, after another consumer was handed the
		// message and acked it (its lease ran out, lease-expires): the
		// server has nothing pending left to ack.
		return nil
	}
	ctx, cancel := b.c.op()
	defer cancel()
	if err := st.pending.DoubleAck(ctx); err != nil {
		return b.err("ack "+m.String(), err)
	}
	st.acked = true
	return nil
}

// Acks counts the ack attempts, the lost ones included.
func (b *Inbox) Acks() int { return b.acks }

// Acked asks the server: m's consumer has nothing pending and its ack
// floor is at or past m.
func (b *Inbox) Acked(m inbox.Message) bool {
	st, ok := b.msgs[m.String()]
	if !ok || st.cons == nil {
		return false
	}
	ctx, cancel := b.c.op()
	defer cancel()
	info, err := st.cons.Info(ctx)
	return err == nil && info.NumAckPending == 0 && info.AckFloor.Stream >= st.seq
}

// Close deletes the run's stream, and with it its consumers, even after
// Ctrl-C: a stream that is not there is already deleted.
func (b *Inbox) Close() error {
	ctx, cancel := b.uncancelled()
	defer cancel()
	if err := b.c.js.DeleteStream(ctx, b.stream); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return b.err("delete stream "+b.stream, err)
	}
	return nil
}

// uncancelled bounds a call that creates or deletes the run's stream by
// opTimeout alone: Ctrl-C, which cancels the run's context, must not
// leave it halfway.
func (b *Inbox) uncancelled() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(b.c.ctx), opTimeout)
}

func (b *Inbox) subj(st *msgState) string { return b.subject + "." + strconv.Itoa(st.n) }

func (b *Inbox) err(op string, err error) error {
	return &harness.BrokerError{Broker: "nats", Op: op, Err: err}
}

// Streams counts the streams on the server the connection sees: what a
// test reads to prove a run cleaned up after itself.
func (c *Conn) Streams() int {
	ctx, cancel := c.op()
	defer cancel()
	n := 0
	for range c.js.StreamNames(ctx).Name() {
		n++
	}
	return n
}
