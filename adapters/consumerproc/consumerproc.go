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

	"archlab/adapters/sqlstore"
	"archlab/harness"
	"archlab/internal/inbox"
)

// ChildEnv is set to "1" in a consumer process's environment. A test binary
// that stands in for archlab checks it in TestMain to act as the child.
const ChildEnv = "ARCHLAB_CONSUMER_CHILD"

// Spawner is a harness.Consumer whose every delivery runs in a fresh
// process on the SQLite file DB. The harness decides the strategy and the
// crash point; the spawner only knows how to stop a process there.
type Spawner struct {
	// Context, when done, kills a running child (Ctrl-C); Handle then
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

var _ harness.Consumer = (*Spawner)(nil)

// request is the child's standard input (first line).
type request struct {
	DB          string           `json:"db"`
	Synchronous string           `json:"synchronous,omitempty"`
	Strategy    harness.Strategy `json:"strategy"`
	Msg         inbox.Message    `json:"msg"`
	KillAt      harness.Point    `json:"kill_at,omitempty"` // "" lets the process finish and exit
}

// event is one line the child writes on descriptor 3: what the handler
// did (a statement, a write, its ack, a prune: harness.Event), a point it
// passed, its return, or an error.
type event struct {
	harness.Event
	At       harness.Point `json:"at,omitempty"`
	Die      bool          `json:"die,omitempty"`  // the process is to be killed at At
	Done     bool          `json:"done,omitempty"` // the handler returned
	Reported bool          `json:"reported,omitempty"`
	Problem  string        `json:"error,omitempty"`
}

// Handle starts a fresh consumer process, hands it m and reads its events
// until it exits, or until it reports a point that reached crash: then it
// sends SIGKILL, and Crashed is that point. It always waits for the
// process, so none is left behind. An error means the delivery did not go
// as the protocol says (the child failed, never reached crash, or Context
// ended); a kill at crash is not an error.
func (s *Spawner) Handle(strategy harness.Strategy, m inbox.Message, crash harness.Point) (harness.Handled, error) {
	ctx := s.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return harness.Handled{}, err
	}
	cmd := exec.CommandContext(ctx, s.Command[0], s.Command[1:]...)
	cmd.Env = append(append(os.Environ(), s.Env...), ChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return harness.Handled{}, err
	}
	events, w, err := os.Pipe()
	if err != nil {
		return harness.Handled{}, err
	}
	defer events.Close()
	cmd.ExtraFiles = []*os.File{w} // descriptor 3 in the child
	err = cmd.Start()
	w.Close() // the child holds the only write end: EOF when it dies
	if err != nil {
		return harness.Handled{}, err
	}
	out := harness.Handled{Pid: cmd.Process.Pid}
	req, _ := json.Marshal(request{DB: s.DB, Synchronous: s.Synchronous, Strategy: strategy, Msg: m, KillAt: crash})
	_, writeErr := stdin.Write(append(req, '\n'))
	var problem string
	done := false
	dec := json.NewDecoder(bufio.NewReader(events))
	for writeErr == nil {
		var e event
		if err := dec.Decode(&e); err != nil {
			break // EOF: the child exited or was killed
		}
		switch {
		case e.Problem != "":
			problem = e.Problem
		case e.Done:
			done, out.Reported = true, e.Reported
		case e.At != "" && out.Crashed == "":
			// At a point that reached crash the child waits; SIGKILL gives
			// it no chance to run another instruction, let alone a
			// deferred cleanup.
			if e.Die && cmd.Process.Kill() == nil {
				out.Crashed = e.At
			}
		case e.At == "":
			out.Events = append(out.Events, e.Event)
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
	case out.Crashed != "":
		return out, nil
	case crash != "":
		return out, fmt.Errorf("consumer pid %d never reached %s (%s)%s", out.Pid, crash, out.Exit, stderrTail(&stderr))
	case waitErr != nil:
		return out, fmt.Errorf("consumer pid %d: %s%s", out.Pid, out.Exit, stderrTail(&stderr))
	case !done:
		return out, fmt.Errorf("consumer pid %d exited (%s) without its handler's answer%s", out.Pid, out.Exit, stderrTail(&stderr))
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

// Serve reads one request from in, runs the strategy's handler for it on
// the database (harness.ServeDelivery: the book's function, in the same
// environment as a consumer in the broker's process) and writes its events
// to out. Every point the handler passes, at its calls or inside a store
// transaction, is reported; at the first point that reached the request's
// kill point it then reads in until EOF, and the parent kills it
// meanwhile. If EOF comes first (the parent is gone) it exits the process
// with status Orphaned, at once: going on would run a delivery no broker is
// watching. The ack and the janitor's prune are reported, not carried out:
// they are the broker's side's.
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
	at := func(p harness.Point, die bool) {
		send(event{At: p, Die: die})
		if !die {
			return
		}
		io.Copy(io.Discard, br) // returns only if the parent closes the pipe
		os.Exit(Orphaned)
	}
	var store *sqlstore.Store
	open := func(between func()) (inbox.Store, error) {
		s, err := sqlstore.Open(req.DB, sqlstore.Options{
			Synchronous: req.Synchronous,
			OnStatement: func(st sqlstore.Statement) {
				send(event{Event: harness.Event{SQL: &harness.Statement{SQL: st.SQL, Rows: st.Rows}}})
			},
			Between: between,
		})
		store = s
		return s, err
	}
	// The process dies where the parent kills it, not where a handler in
	// one process would stop: hence no crash point here.
	reported, err := harness.ServeDelivery(open, req.Strategy, req.Msg, req.KillAt, at, func(e harness.Event) { send(event{Event: e}) })
	if store != nil {
		defer store.Close()
	}
	if err != nil {
		send(event{Problem: err.Error()})
		return err
	}
	send(event{Done: true, Reported: reported})
	return nil
}

// OpenStore opens the SQLite store at path for the harness: every
// statement its write paths send is reported to onSQL in the harness's
// vocabulary, for the trace.
func OpenStore(path string, onSQL func(harness.Statement)) (*sqlstore.Store, error) {
	return sqlstore.Open(path, sqlstore.Options{OnStatement: func(st sqlstore.Statement) {
		onSQL(harness.Statement{SQL: st.SQL, Rows: st.Rows})
	}})
}
