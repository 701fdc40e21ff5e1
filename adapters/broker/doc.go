// Package broker holds what the real-broker adapters share: the error a
// command reports as "could not run" when a broker cannot be reached.
//
// §8.2 and §8.3 are about what brokers do: they redeliver an unacked
// message, keep order within a partition, and let a consumer seek back.
// The harness states those rules against its own broker interfaces
// (harness.InboxBroker, harness.OrderingBroker); natsbroker and
// kafkabroker are adapters that speak that vocabulary on NATS JetStream
// and Kafka, so the drills run unchanged on a real broker.
//
// natsbroker and kafkabroker compile only with -tags brokers: they embed
// nats-server and kfake, a minute and a half of compiling on a fresh
// clone of which nats-server's one package is most, longer than all of
// go test ./... may take (issue 27). The everyday archlab leaves them out
// and builds the archlab that has them on the first --broker run
// (adapters/ondemand); `go test -tags brokers ./...` tests them,
// and .ci/run does.
package broker

import "fmt"

// UnreachableError is a broker that did not answer in time: the URL or
// the brokers given, or the embedded server that would not start.
type UnreachableError struct {
	Broker string // "nats", "kafka"
	Addr   string // what was dialled
	Err    error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach the %s broker at %s: %v", e.Broker, e.Addr, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }
