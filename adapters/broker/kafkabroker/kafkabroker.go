//go:build brokers

// Package kafkabroker is §8.3's broker on Kafka (the franz-go client; the
// embedded default is its in-process cluster, kfake): the queue, the
// requeue, the dead-letter queue and the replayed log are topics.
//
// The rules it shows: order holds within one partition, so one order's
// events go to one partition (routed by the book's ordering.Partition,
// FNV-1a, as a custom partitioner: Kafka's default murmur2 spreads the
// book's 8 orders over 3 of 4 partitions, not 4); a retried event is
// produced again to the back of the queue; a dead letter is a record on a
// DLQ topic; a replay is a fetch from an offset, and an offset past the
// partition's end offset is out of range.
package kafkabroker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"archlab/adapters/broker"
	"archlab/harness"
	"archlab/internal/ordering"
)

// opTimeout bounds every call to the cluster; DialTimeout the first one.
const (
	opTimeout   = 10 * time.Second
	DialTimeout = 2500 * time.Millisecond
)

// Cluster is an embedded Kafka cluster (kfake), one broker, on 127.0.0.1.
type Cluster struct{ c *kfake.Cluster }

// StartCluster starts the embedded cluster on a free port.
func StartCluster() (*Cluster, error) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		return nil, &broker.UnreachableError{Broker: "kafka", Addr: "embedded", Err: err}
	}
	return &Cluster{c: c}, nil
}

// Addrs are the cluster's host:port addresses.
func (c *Cluster) Addrs() []string { return c.c.ListenAddrs() }

// Close stops the cluster.
func (c *Cluster) Close() { c.c.Close() }

// Conn is one invocation's client of a cluster.
type Conn struct {
	ctx   context.Context
	seeds []string
	cl    *kgo.Client
	adm   *kadm.Client
	desc  string
}

// Dial connects to the brokers and asks them for their metadata; it gives
// up after DialTimeout. desc names the cluster in --trace.
func Dial(ctx context.Context, seeds []string, desc string) (*Conn, error) {
	addr := strings.Join(seeds, ",")
	cl, err := kgo.NewClient(clientOpts(seeds)...)
	if err != nil {
		return nil, &broker.UnreachableError{Broker: "kafka", Addr: addr, Err: err}
	}
	pctx, cancel := context.WithTimeout(ctx, DialTimeout)
	defer cancel()
	if err := cl.Ping(pctx); err != nil {
		cl.Close()
		return nil, &broker.UnreachableError{Broker: "kafka", Addr: addr, Err: err}
	}
	return &Conn{ctx: ctx, seeds: seeds, cl: cl, adm: kadm.NewClient(cl), desc: desc}, nil
}

// clientOpts are every client's options: the book's partitioner, a
// produce that is sent at once, and a dial that gives up quickly.
func clientOpts(seeds []string, more ...kgo.Opt) []kgo.Opt {
	return append([]kgo.Opt{
		kgo.SeedBrokers(seeds...),
		kgo.DialTimeout(DialTimeout),
		kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.BasicConsistentPartitioner(func(string) func(*kgo.Record, int) int {
			// n is the topic's partition count, as the cluster reports it.
			return func(r *kgo.Record, n int) int { return ordering.Partition(string(r.Key), n) }
		})),
	}, more...)
}

// Close closes the client.
func (c *Conn) Close() { c.cl.Close() }

// Topics lists the topics whose name starts with prefix: what a test
// reads to prove a run deleted its own.
func (c *Conn) Topics(prefix string) ([]string, error) {
	ctx, cancel := c.op()
	defer cancel()
	td, err := c.adm.ListTopics(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range td.Names() {
		if strings.HasPrefix(t, prefix) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Prefix starts the name of every topic a run creates.
const Prefix = "archlab-"

func (c *Conn) op() (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.ctx, opTimeout)
}

// NewOrdering creates one run's topics, named uniquely: the queue, the
// dead-letter queue and the log, one partition each (order holds within a
// partition, and the queue's order is the drill's). Close deletes them and
// the routing topics, and nothing else.
func (c *Conn) NewOrdering() (harness.OrderingBroker, error) {
	id := Prefix + strconv.FormatInt(time.Now().UnixNano(), 36)
	b := &Ordering{c: c, queue: id + "-queue", dlq: id + "-dlq", log: id + "-log", route: id + "-route-", routes: map[int]bool{}}
	if err := b.create(1, b.queue, b.dlq, b.log); err != nil {
		b.Close()
		return nil, err
	}
	cons, err := kgo.NewClient(clientOpts(c.seeds,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{b.queue: {0: kgo.NewOffset().At(0)}}),
		kgo.FetchMaxWait(50*time.Millisecond))...)
	if err != nil {
		b.Close()
		return nil, b.err("consume "+b.queue, err)
	}
	b.cons = cons
	return b, nil
}

// Ordering is one §8.3 run's broker.
type Ordering struct {
	c                     *Conn
	queue, dlq, log       string
	route                 string       // prefix of the routing topics, one per partition count
	routes                map[int]bool // routing topics created
	cons                  *kgo.Client  // the queue's consumer
	produced, consumed    int64        // the queue's records written and read
	created               []string
	dlqProduced, appended int64
}

// record is an event on a topic.
type record struct {
	Event    ordering.Event `json:"event"`
	Attempts int            `json:"attempts,omitempty"`
	Reason   string         `json:"reason,omitempty"`
}

// create creates topics for this run. They are Close's to delete from the
// moment they are asked for, and Ctrl-C does not cut the request short: a
// request cancelled after the cluster made the topics, before its answer
// came, would leave them there with nobody to delete them.
func (b *Ordering) create(partitions int32, topics ...string) error {
	b.created = append(b.created, topics...)
	ctx, cancel := b.uncancelled()
	defer cancel()
	res, err := b.c.adm.CreateTopics(ctx, partitions, -1, nil, topics...)
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		return b.err("create topics "+strings.Join(topics, ", "), err)
	}
	return nil
}

// uncancelled bounds a call that creates or deletes the run's topics by
// opTimeout alone, not by the run's context, which Ctrl-C cancels.
func (b *Ordering) uncancelled() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(b.c.ctx), opTimeout)
}

// produce writes one record and returns it as the cluster acked it.
func (b *Ordering) produce(topic, key string, v record) (*kgo.Record, error) {
	val, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	ctx, cancel := b.c.op()
	defer cancel()
	r := &kgo.Record{Topic: topic, Key: []byte(key), Value: val,
		Headers: []kgo.RecordHeader{{Key: "attempt", Value: []byte(strconv.Itoa(v.Attempts))}}}
	if err := b.c.cl.ProduceSync(ctx, r).FirstErr(); err != nil {
		return nil, b.err("produce to "+topic, err)
	}
	return r, nil
}

// Publish produces e to the back of the queue; the attempt travels in the
// record (a header and the value).
func (b *Ordering) Publish(e ordering.Event, attempt int) error {
	if _, err := b.produce(b.queue, e.OrderID, record{Event: e, Attempts: attempt}); err != nil {
		return err
	}
	b.produced++
	return nil
}

// Next fetches the queue's next record; the queue is empty when every
// record produced to it has been read.
func (b *Ordering) Next() (ordering.Event, int, bool, error) {
	if b.consumed >= b.produced {
		return ordering.Event{}, 0, false, nil
	}
	ctx, cancel := b.c.op()
	defer cancel()
	for {
		fs := b.cons.PollRecords(ctx, 1)
		if err := fetchErr(fs); err != nil {
			return ordering.Event{}, 0, false, b.err("fetch from "+b.queue, err)
		}
		for _, r := range fs.Records() {
			b.consumed = r.Offset + 1
			var v record
			if err := json.Unmarshal(r.Value, &v); err != nil {
				return ordering.Event{}, 0, false, b.err("decode "+b.queue, err)
			}
			return v.Event, v.Attempts, true, nil
		}
	}
}

// fetchErr is a poll's first error; a context that ended is one.
func fetchErr(fs kgo.Fetches) error {
	if err := fs.Err0(); err != nil {
		return err
	}
	var first error
	fs.EachError(func(_ string, _ int32, err error) {
		if first == nil {
			first = err
		}
	})
	return first
}

// DeadLetter produces the entry to the DLQ topic.
func (b *Ordering) DeadLetter(d ordering.DLQEntry) error {
	if _, err := b.produce(b.dlq, d.Event.OrderID, record{Event: d.Event, Attempts: d.Attempts, Reason: d.Reason}); err != nil {
		return err
	}
	b.dlqProduced++
	return nil
}

// DeadLetters reads the DLQ topic from its start.
func (b *Ordering) DeadLetters() ([]ordering.DLQEntry, error) {
	recs, err := b.read(b.dlq, 0, b.dlqProduced)
	var out []ordering.DLQEntry
	for _, v := range recs {
		out = append(out, ordering.DLQEntry{Event: v.Event, Attempts: v.Attempts, Reason: v.Reason})
	}
	return out, err
}

// Append produces e to the log; the log's length is the acked offset + 1.
func (b *Ordering) Append(e ordering.Event) (int, error) {
	r, err := b.produce(b.log, e.OrderID, record{Event: e})
	if err != nil {
		return 0, err
	}
	b.appended = r.Offset + 1
	return int(b.appended), nil
}

// Len is the log partition's end offset, as the cluster lists it.
func (b *Ordering) Len() (int, error) {
	ctx, cancel := b.c.op()
	defer cancel()
	offs, err := b.c.adm.ListEndOffsets(ctx, b.log)
	if err == nil {
		err = offs.Error()
	}
	if err != nil {
		return 0, b.err("list end offset of "+b.log, err)
	}
	o, ok := offs.Lookup(b.log, 0)
	if !ok {
		return 0, b.err("list end offset of "+b.log, errors.New("no partition 0"))
	}
	return int(o.Offset), nil
}

// NextBatch is ordering.Log.NextBatch on the log topic: an offset outside
// [0, end offset] is out of range (a fetch there is OFFSET_OUT_OF_RANGE),
// the end offset is drained, anything else fetches from the offset.
func (b *Ordering) NextBatch(offset, size int) ([]ordering.Event, int, error) {
	end, err := b.Len()
	if err != nil {
		return nil, offset, err
	}
	if offset < 0 || offset > end {
		return nil, offset, fmt.Errorf("kafka: read at %d, partition end offset %d: %w", offset, end, ordering.ErrOffsetOutOfRange)
	}
	if size <= 0 {
		return nil, offset, fmt.Errorf("kafka: read %d events at %d: %w", size, offset, ordering.ErrBatchSize)
	}
	n := min(size, end-offset)
	if n == 0 {
		return nil, offset, nil
	}
	recs, err := b.read(b.log, int64(offset), int64(n))
	var out []ordering.Event
	for _, v := range recs {
		out = append(out, v.Event)
	}
	return out, offset + len(out), err
}

// read fetches n records of topic's partition 0 from offset: a consumer
// that seeks there, and is closed after.
func (b *Ordering) read(topic string, offset, n int64) ([]record, error) {
	if n <= 0 {
		return nil, nil
	}
	cl, err := kgo.NewClient(clientOpts(b.c.seeds,
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().At(offset)}}),
		kgo.FetchMaxWait(50*time.Millisecond))...)
	if err != nil {
		return nil, b.err("consume "+topic, err)
	}
	defer cl.Close()
	ctx, cancel := b.c.op()
	defer cancel()
	var out []record
	for int64(len(out)) < n {
		fs := cl.PollRecords(ctx, int(n)-len(out))
		if err := fetchErr(fs); err != nil {
			return out, b.err(fmt.Sprintf("fetch %s from offset %d", topic, offset), err)
		}
		for _, r := range fs.Records() {
			var v record
			if err := json.Unmarshal(r.Value, &v); err != nil {
				return out, b.err("decode "+topic, err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// Partition produces orderID's record to the routing topic of partitions
// partitions and returns the partition the cluster acked it on.
func (b *Ordering) Partition(orderID string, partitions int) (int, error) {
	topic := b.route + strconv.Itoa(partitions)
	if !b.routes[partitions] {
		if err := b.create(int32(partitions), topic); err != nil {
			return 0, err
		}
		b.routes[partitions] = true
	}
	r, err := b.produce(topic, orderID, record{Event: ordering.Event{OrderID: orderID}})
	if err != nil {
		return 0, err
	}
	return int(r.Partition), nil
}

// Name is how --trace names the broker.
func (b *Ordering) Name() string { return b.c.desc }

// Close closes the queue's consumer and deletes the run's topics.
func (b *Ordering) Close() error {
	if b.cons != nil {
		b.cons.Close()
	}
	if len(b.created) == 0 {
		return nil
	}
	ctx, cancel := b.uncancelled()
	defer cancel()
	res, err := b.c.adm.DeleteTopics(ctx, b.created...)
	if err != nil {
		return b.err("delete topics", err)
	}
	for _, r := range res.Sorted() {
		// A topic whose creation failed is not there: nothing to delete.
		if r.Err != nil && !errors.Is(r.Err, kerr.UnknownTopicOrPartition) {
			return b.err("delete topic "+r.Topic, r.Err)
		}
	}
	return nil
}

func (b *Ordering) err(op string, err error) error {
	return &harness.BrokerError{Broker: "kafka", Op: op, Err: err}
}
