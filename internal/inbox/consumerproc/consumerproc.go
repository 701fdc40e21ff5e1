package consumerproc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"archlab/internal/inbox"
	"archlab/internal/inbox/sqlstore"
)

// ChildEnv is set to "1" in a consumer process's environment. A test binary
// that stands in for archlab checks it in TestMain to act as the child.
const ChildEnv = "ARCHLAB_CONSUMER_CHILD"

// Op is the handler a consumer process runs on its delivery.
type Op string

// The three handlers of 8.2.
const (
	ApplyOnce        Op = "apply-once"         // the book's Consume: ApplyOnce, then ack
	NaiveApply       Op = "naive-apply"        // NaiveApply, then ack
	MarkBeforeEffect Op = "mark-before-effect" // MarkBeforeEffect, then ack
)

// BeforeAck is the point after the handler returned (its transaction is
// committed) and before the ack is sent: where the book's lost ack happens.
// The store's own points (sqlstore.AfterBegin, ...) lie inside the handler.
const BeforeAck sqlstore.Point = "before-ack"

// Delivery is one message handed to one fresh consumer process.
type Delivery struct {
	Op     Op
	Msg    inbox.Message
	KillAt sqlstore.Point // "" lets the process finish and exit
}

// Outcome is what the broker saw of one delivery.
type Outcome struct {
	Pid        int
	Statements []sqlstore.Statement // the SQL the child ran, in order
	Answered   bool                 // the handler returned...
	Applied    bool                 // ...and this is its answer (ApplyOnce's bool; true for NaiveApply)
	Acked      bool                 // the child sent its ack
	Killed     bool                 // the child reached KillAt and was killed with SIGKILL
	Exit       string               // how the process ended, as os.ProcessState says it
}

// Spawner starts consumer processes for a broker. Every process opens DB.
type Spawner struct {
	// Context, when done, kills a running child (Ctrl-C); Deliver then
	// returns the context's error after waiting for it.
	Context context.Context
	// Command is the child's argv: archlab's path and its hidden
	// subcommand.
	Command []string
	// Env is added to the parent's environment; ChildEnv=1 always is.
	Env         []string
	DB          string
	Synchronous string
}

// request is the child's standard input (first line).
type request struct {
	DB          string         `json:"db"`
	Synchronous string         `json:"synchronous,omitempty"`
	Op          Op             `json:"op"`
	Msg         inbox.Message  `json:"msg"`
	KillAt      sqlstore.Point `json:"kill_at,omitempty"`
}

// event is one line the child writes on descriptor 3.
type event struct {
	SQL     string         `json:"sql,omitempty"`
	Rows    int64          `json:"rows,omitempty"`
	At      sqlstore.Point `json:"at,omitempty"`
	Answer  *bool          `json:"answer,omitempty"`
	Ack     bool           `json:"ack,omitempty"`
	Problem string         `json:"error,omitempty"`
}

// Deliver starts a fresh consumer process, hands it d and reads its events
// until it exits, or until it reaches d.KillAt: then it sends SIGKILL. It
// always waits for the process, so none is left behind. An error means the
// delivery did not go as the protocol says (the child failed, or Context
// ended); a kill at KillAt is not an error.
func (s *Spawner) Deliver(d Delivery) (Outcome, error) {
	ctx := s.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	cmd := exec.CommandContext(ctx, s.Command[0], s.Command[1:]...)
	cmd.Env = append(append(os.Environ(), s.Env...), ChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Outcome{}, err
	}
	events, w, err := os.Pipe()
	if err != nil {
		return Outcome{}, err
	}
	defer events.Close()
	cmd.ExtraFiles = []*os.File{w} // descriptor 3 in the child
	err = cmd.Start()
	w.Close() // the child holds the only write end: EOF when it dies
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Pid: cmd.Process.Pid}
	req, _ := json.Marshal(request{DB: s.DB, Synchronous: s.Synchronous, Op: d.Op, Msg: d.Msg, KillAt: d.KillAt})
	_, writeErr := stdin.Write(append(req, '\n'))
	var problem string
	dec := json.NewDecoder(bufio.NewReader(events))
	for writeErr == nil {
		var e event
		if err := dec.Decode(&e); err != nil {
			break // EOF: the child exited or was killed
		}
		switch {
		case e.SQL != "":
			out.Statements = append(out.Statements, sqlstore.Statement{SQL: e.SQL, Rows: e.Rows})
		case e.Answer != nil:
			out.Answered, out.Applied = true, *e.Answer
		case e.Ack:
			out.Acked = true
		case e.Problem != "":
			problem = e.Problem
		case e.At != "" && e.At == d.KillAt && !out.Killed:
			// The child waits at the point; SIGKILL gives it no chance to
			// run another instruction, let alone a deferred cleanup.
			if err := cmd.Process.Kill(); err == nil {
				out.Killed = true
			}
		}
	}
	stdin.Close()
	waitErr := cmd.Wait()
	out.Exit = cmd.ProcessState.String()
	switch {
	case ctx.Err() != nil:
		return out, ctx.Err()
	case writeErr != nil:
		return out, fmt.Errorf("consumer pid %d: sending the delivery: %w", out.Pid, writeErr)
	case problem != "":
		return out, fmt.Errorf("consumer pid %d: %s", out.Pid, problem)
	case out.Killed:
		return out, nil
	case d.KillAt != "":
		return out, fmt.Errorf("consumer pid %d never reached %s (%s)%s", out.Pid, d.KillAt, out.Exit, stderrTail(&stderr))
	case waitErr != nil:
		return out, fmt.Errorf("consumer pid %d: %s%s", out.Pid, out.Exit, stderrTail(&stderr))
	}
	return out, nil
}

func stderrTail(b *bytes.Buffer) string {
	if s := strings.TrimSpace(b.String()); s != "" {
		return ": " + s
	}
	return ""
}

// limitedWriter keeps the first n bytes of what a child writes on stderr.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// byHand is what the consumer says when it is started without a broker.
const byHand = "consumerproc: no delivery: this command is started by archlab's --crash real, not by hand"

// errNoDelivery is an empty standard input: nobody sent a delivery.
var errNoDelivery = errors.New("no delivery on standard input")

// Orphaned is the exit status of a child whose parent went away while it
// waited at its kill point.
const Orphaned = 3

// Main is the child's side: it serves one delivery from standard input,
// reporting on descriptor 3, and returns the process's exit status. It is
// what archlab's hidden subcommand runs.
func Main() int {
	events := os.NewFile(3, "events")
	if _, err := events.Stat(); err != nil {
		fmt.Fprintln(os.Stderr, byHand)
		return 2
	}
	if err := Serve(os.Stdin, events); errors.Is(err, errNoDelivery) {
		fmt.Fprintln(os.Stderr, byHand)
		return 2
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "consumerproc:", err)
		return 1
	}
	return 0
}

// Serve reads one request from in, runs its handler on the database and
// writes its events to out. At the request's kill point it reports the
// point and reads in until EOF; the parent kills it meanwhile. If EOF comes
// first (the parent is gone) it exits the process with status Orphaned, at
// once: going on would run a delivery no broker is watching.
func Serve(in io.Reader, out io.Writer) error {
	br := bufio.NewReader(in)
	line, err := br.ReadBytes('\n')
	if err == io.EOF && len(line) == 0 {
		return errNoDelivery
	}
	if err != nil {
		return fmt.Errorf("reading the delivery: %w", err)
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return fmt.Errorf("reading the delivery: %w", err)
	}
	enc := json.NewEncoder(out)
	send := func(e event) {
		if err := enc.Encode(e); err != nil {
			os.Exit(Orphaned) // the broker stopped listening
		}
	}
	wait := func(p sqlstore.Point) {
		if p != req.KillAt {
			return
		}
		send(event{At: p})
		io.Copy(io.Discard, br) // returns only if the parent closes the pipe
		os.Exit(Orphaned)
	}
	store, err := sqlstore.Open(req.DB, sqlstore.Options{
		Synchronous: req.Synchronous,
		OnStatement: func(st sqlstore.Statement) { send(event{SQL: st.SQL, Rows: st.Rows}) },
		At:          wait,
	})
	if err != nil {
		send(event{Problem: err.Error()})
		return err
	}
	defer store.Close()
	m := req.Msg
	// The handler, then the ack: the order of inbox.Consume.
	var applied bool
	switch req.Op {
	case ApplyOnce:
		applied, err = store.ApplyOnce(m)
	case NaiveApply:
		store.NaiveApply(m)
		applied, err = true, store.Err()
	case MarkBeforeEffect:
		before := store.Applies()
		err = store.MarkBeforeEffect(m, false)
		applied = store.Applies() > before
		err = errors.Join(err, store.Err())
	default:
		err = fmt.Errorf("unknown handler %q", req.Op)
	}
	if err != nil {
		send(event{Problem: err.Error()})
		return err
	}
	send(event{Answer: &applied})
	wait(BeforeAck)
	send(event{Ack: true})
	return nil
}
