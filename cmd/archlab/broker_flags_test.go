package main

import (
	"strings"
	"testing"
)

// TestBrokerRefused: a broker the drills do not take, or an address that
// cannot be one, is one line saying what is allowed, exit 2, at once:
// nothing is built or dialled. A password in a malformed URL is not
// printed.
func TestBrokerRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"drill", "--all", "--broker", "nats"}, exitUsage, "--broker nats does not run drill partition-affinity (§8.3): --broker nats runs the §8.2 drills, --broker kafka the §8.3 drills, memory every drill"},
		{[]string{"drill", "crash-resume", "--broker", "kafka"}, exitUsage, "--broker kafka does not run drill crash-resume (§11.2)"},
		{[]string{"drill", "ack-lost", "--broker", "rabbitmq"}, exitUsage, `--broker must be memory, nats or kafka, got "rabbitmq"`},
		{[]string{"drill", "--chapter", "8.2", "--nats-url", "nats://127.0.0.1:4222"}, exitUsage, "--nats-url needs --broker nats"},
		// Issue 25: an address that cannot be one is bad input (it was
		// dialled, and exit 3).
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "localhost 4222"}, exitUsage, `--nats-url must be nats://host:port (or tls://, ws://, wss://, or host:port; several separated by commas; user:password@ before the host if the server wants it), got "localhost 4222"`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://"}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://h:99999"}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "http://h:4222"}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://h:4222/x"}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://h:4222,"}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", ""}, exitUsage, `--nats-url must be nats://host:port`},
		{[]string{"drill", "ack-lost", "--broker", "nats", "--nats-url", "nats://u:s3cret@h:x"}, exitUsage, `got "nats://u:xxxxx@h:x"`},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", ","}, exitUsage, `--kafka-brokers must list host:port addresses separated by commas, like localhost:9092, got ","`},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", ":9092"}, exitUsage, `--kafka-brokers must list host:port addresses`},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", "k1:9092,,k2:9092"}, exitUsage, `--kafka-brokers must list host:port addresses`},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", "k1:port"}, exitUsage, `--kafka-brokers must list host:port addresses`},
		{[]string{"drill", "replay", "--broker", "kafka", "--kafka-brokers", "kafka://k1:9092"}, exitUsage, `--kafka-brokers must list host:port addresses`},
		{[]string{"drill", "--chapter", "8.3", "--kafka-brokers", ""}, exitUsage, "--kafka-brokers needs --broker kafka"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := runCLI(t, nil, tc.args...)
			first, _, _ := strings.Cut(errOut, "\n")
			if code != tc.code || !strings.Contains(first, tc.want) || out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit %d and %q", code, errOut, out, tc.code, tc.want)
			}
			if strings.Contains(errOut, "s3cret") {
				t.Errorf("a secret on stderr: %q", errOut)
			}
			if strings.Contains(errOut, "building") {
				t.Errorf("bad input built a variant first: %q", errOut)
			}
		})
	}
}
