package drill

import (
	"context"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/harness"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// brokerOptions are the flags that put a section's broker on a real one:
// --broker memory|nats|kafka, --nats-url URL, --kafka-brokers host:port,…
type brokerOptions struct {
	broker       string
	natsURL      string
	kafkaBrokers string
	// natsGiven and kafkaGiven: the flag was on the command line, even
	// empty (`--kafka-brokers ""` is a bad list, not the embedded server).
	natsGiven, kafkaGiven bool
}

// The section each real broker runs: NATS JetStream delivers §8.2's
// messages, Kafka carries §8.3's queue, DLQ and log.
var brokerSection = map[string]*harness.Section{"nats": &harness.InboxSection, "kafka": &harness.OrderingSection}

// AddBrokerFlags registers the broker flags: all of them on the drill
// command (--all, --chapter, --file), and on a drill subcommand --broker
// and the URL flag of the broker its section takes.
func AddBrokerFlags(f *pflag.FlagSet, g *cli.Env, so *StoreOptions, d *drills.Drill) {
	o := &so.broker
	f.StringVar(&o.broker, "broker", "memory", g.T("help.flag.broker"))
	if d == nil || d.Sec() == brokerSection["nats"] {
		f.Var(givenString{&o.natsURL, &o.natsGiven}, "nats-url", g.T("help.flag.nats-url"))
	}
	if d == nil || d.Sec() == brokerSection["kafka"] {
		f.Var(givenString{&o.kafkaBrokers, &o.kafkaGiven}, "kafka-brokers", g.T("help.flag.kafka-brokers"))
	}
}

// givenString is a string flag that remembers it was given.
type givenString struct {
	s     *string
	given *bool
}

func (v givenString) Set(s string) error { *v.s, *v.given = s, true; return nil }
func (v givenString) String() string {
	if v.s == nil {
		return ""
	}
	return *v.s
}
func (v givenString) Type() string { return "string" }

// brokerRun is one invocation's real broker: an embedded server started
// for it, or a connection to the reader's own (with_brokers.go).
type brokerRun interface {
	// env puts the broker in drill d's Env.
	env(d *drills.Drill, env *harness.Env)
	// where is the broker: "nats" or "kafka", and its address, "" for
	// the embedded server; a URL's password is never in it.
	where() (kind, addr string)
	// close closes the connection, then the embedded server.
	close()
}

// openRealBroker starts or reaches the chosen broker, in the archlab built
// with -tags brokers (with_brokers.go); nil in the light one, which hands
// a --broker nats|kafka run over to that one (ui/cli/parts.go).
var openRealBroker func(ctx context.Context, g *cli.Env, o brokerOptions) (brokerRun, error)

// checkBroker refuses a broker the drills about to run do not take, and
// an address that cannot be one: one line saying what is allowed (exit 2),
// before anything is built, started or dialled.
func checkBroker(g *cli.Env, o brokerOptions, list []*drills.Drill) error {
	switch {
	case o.broker != "memory" && o.broker != "nats" && o.broker != "kafka":
		return &status.Usage{Msg: g.T("err.broker", o.broker)}
	case o.natsGiven && o.broker != "nats":
		return &status.Usage{Msg: g.T("err.broker.url-needs", "--nats-url", "nats")}
	case o.kafkaGiven && o.broker != "kafka":
		return &status.Usage{Msg: g.T("err.broker.url-needs", "--kafka-brokers", "kafka")}
	case o.natsGiven && !validNATSURLs(o.natsURL):
		return &status.Usage{Msg: g.T("err.broker.nats-url", redactURL(o.natsURL))}
	case o.kafkaGiven && !validKafkaBrokers(o.kafkaBrokers):
		return &status.Usage{Msg: g.T("err.broker.kafka-brokers", o.kafkaBrokers)}
	case o.broker == "memory":
		return nil
	}
	for _, d := range list {
		if sec := brokerSection[o.broker]; d.Sec() != sec {
			return &status.Usage{Msg: g.T("err.broker.section", o.broker, d.Name, d.Section),
				Hint: g.T("err.broker.section.hint", sec.ID, o.broker)}
		}
	}
	return nil
}

// validNATSURLs reports whether s is what the NATS client can dial: one or
// more URLs separated by commas, each nats://host[:port] (or tls://,
// ws://, wss://, or host[:port] alone), with user:password@ or token@ if
// the server wants them, and nothing after the port.
func validNATSURLs(s string) bool {
	for _, raw := range strings.Split(s, ",") {
		raw = strings.TrimSpace(raw)
		if !strings.Contains(raw, "://") {
			raw = "nats://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil || u.Hostname() == "" || strings.ContainsAny(u.Hostname(), " ,") ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || !validPort(u.Port(), true) {
			return false
		}
		switch strings.ToLower(u.Scheme) {
		case "nats", "tls", "ws", "wss":
		default:
			return false
		}
	}
	return true
}

// validKafkaBrokers reports whether s is a list of seed brokers: host or
// host:port, separated by commas ([::1]:9092 for an IPv6 address).
// An empty entry is refused: `--kafka-brokers ,` would dial ":9092".
func validKafkaBrokers(s string) bool {
	for _, addr := range strings.Split(s, ",") {
		addr = strings.TrimSpace(addr)
		host, port := addr, ""
		if strings.Contains(addr, ":") {
			var err error
			if host, port, err = net.SplitHostPort(addr); err != nil || !validPort(port, false) {
				return false
			}
		}
		if host == "" || strings.ContainsAny(host, " /@?#[]") {
			return false
		}
	}
	return true
}

// validPort: a number from 1 to 65535; empty is allowed where the client
// adds its default.
func validPort(p string, emptyOK bool) bool {
	if p == "" {
		return emptyOK
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535 && strconv.Itoa(n) == p
}

// redactURL hides the secret of each URL in s, a list separated by
// commas: nats://user:secret@host becomes nats://user:xxxxx@host, and
// nats://token@host becomes nats://xxxxx@host. It works on the text, so a
// URL too broken to parse is hidden too.
func redactURL(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if info, start, ok := userinfo(p); ok {
			parts[i] = p[:start] + hidden(info) + p[start+len(info):]
		}
	}
	return strings.Join(parts, ",")
}

// redactIn hides in msg (a client's error, which may quote the URL) every
// user:secret@ or token@ of the URLs in raw.
func redactIn(msg, raw string) string {
	for _, p := range strings.Split(raw, ",") {
		if info, _, ok := userinfo(p); ok {
			msg = strings.ReplaceAll(msg, info+"@", hidden(info)+"@")
		}
	}
	return msg
}

// userinfo is the part of url between "scheme://" and the last "@", and
// where it starts.
func userinfo(u string) (info string, start int, ok bool) {
	at := strings.LastIndex(u, "@")
	if at < 0 {
		return "", 0, false
	}
	if i := strings.Index(u, "://"); i >= 0 && i < at {
		start = i + 3
	}
	return u[start:at], start, true
}

func hidden(info string) string {
	if user, _, ok := strings.Cut(info, ":"); ok {
		return user + ":xxxxx"
	}
	return "xxxxx"
}

// brokerFailure is a drill the broker stopped (it went away, it refused an
// operation): "could not run" (exit 3), not a drill that disagrees with
// the book.
func brokerFailure(g *cli.Env, res *drills.Result, o brokerOptions) error {
	if res == nil || !harness.IsBrokerError(res.Err) {
		return nil
	}
	msg := redactIn(cli.FirstLine(res.Err.Error()), o.natsURL)
	return &status.CouldNotRun{Msg: g.T("err.env.run", res.Drill.Name, msg)}
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
		s.ctx, s.stop = status.SignalContext(context.Background())
	}
	b, err := openRealBroker(s.ctx, s.g, s.o.broker)
	if err != nil {
		failed := err
		s.close(s.g, &failed)
		return nil, err
	}
	s.brokers = b
	return s, nil
}

// brokerName is the run's broker as --json names it: "memory" (the
// model), "nats (embedded)", "kafka localhost:9092".
func (s *stores) brokerName() string {
	if s == nil || s.brokers == nil {
		return "memory"
	}
	kind, addr := s.brokers.where()
	if addr == "" {
		return kind + " (embedded)"
	}
	return kind + " " + addr
}

// brokerLine is the line that says which real broker the run used, in
// the reader's language; "" on the model.
func (s *stores) brokerLine() string {
	if s == nil || s.brokers == nil {
		return ""
	}
	kind, addr := s.brokers.where()
	if addr == "" {
		return s.g.T("cli.on-broker.embedded", kind)
	}
	return s.g.T("cli.on-broker.at", kind, addr)
}
