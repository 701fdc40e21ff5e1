package main

import (
	"context"
	"errors"
	"slices"
	"strings"

	"archlab/adapters/ondemand"
	"archlab/ui/status"
)

// Some runs need a heavy part this archlab may be built without (SQLite,
// the embedded brokers, net/http): each is a build tag, wired by a file of
// its own that only that tag compiles (with_brokers.go, with_sqlite.go,
// with_web.go). A run that needs one is checked as usual, then handed to
// the archlab built with it, which adapters/ondemand builds once from the
// clone into the user's cache.

// linked reports whether this binary was built with part's tag.
func linked(part string) bool {
	switch part {
	case "brokers":
		return openRealBroker != nil
	case "sqlite":
		return sqlite != nil
	case "web":
		return serveWeb != nil
	}
	return false
}

// needsError is a run this archlab cannot do: it was built without a part
// the run needs. run hands the command line to an archlab built with the
// parts (handOver); it never reaches the reader as an error.
type needsError struct {
	parts []string // the build tags the run needs, sorted
	asker string   // what asked for them: "--broker nats", "serve"
}

func (e *needsError) Error() string { return e.asker + " needs -tags " + strings.Join(e.parts, ",") }

// needParts is nil when this binary has every part, and otherwise the
// needsError that hands the run over. The variant named is the run's
// parts, not this binary's plus them: each set of parts is built once.
func needParts(asker string, parts ...string) error {
	if !slices.ContainsFunc(parts, func(p string) bool { return !linked(p) }) {
		return nil
	}
	parts = slices.Clone(parts)
	slices.Sort(parts)
	return &needsError{parts: slices.Compact(parts), asker: asker}
}

// handOver builds (once) the archlab with the parts the run needs and runs
// the same command line in it (adapters/ondemand). It returns the exit
// status of that run, or an error if it could not start it.
func (g *globalOptions) handOver(ne *needsError, args []string) (int, error) {
	bin, err := g.variant(context.Background(), ne)
	if err != nil {
		return 0, err
	}
	io := g.io
	code, err := ondemand.HandOver(bin, args, ondemand.Streams{In: io.In, Out: io.Out, Err: io.Err, Getenv: io.Getenv,
		Width: io.Width, OutIsTerminal: io.OutIsTerminal, InIsTerminal: io.InIsTerminal, Replace: io.Replace}, g.lang)
	return code, g.ondemandError(context.Background(), err)
}

// variant is the archlab built with ne's parts, built first if it must
// be; Ctrl-C stops the build.
func (g *globalOptions) variant(ctx context.Context, ne *needsError) (string, error) {
	ctx, stop := status.SignalContext(ctx)
	defer stop()
	want := ondemand.Want{Parts: ne.parts, Asker: ne.asker, Lang: g.lang, Err: g.io.Err}
	if !wantsJSON(g.args) {
		want.Tick = g.io.ErrTerminal // a person watches: the build's seconds
	}
	bin, err := ondemand.Variant(ctx, want)
	return bin, g.ondemandError(ctx, err)
}

// ondemandError is the builder's error as the kind cmd exits with: a
// build a signal stopped is 128+signal, anything else exit 3.
func (g *globalOptions) ondemandError(ctx context.Context, err error) error {
	var oe *ondemand.Error
	switch {
	case !errors.As(err, &oe):
		return err
	case oe.Interrupted:
		return &interruptedError{Msg: oe.Msg, Code: status.SignalStatus(ctx)}
	}
	return &couldNotRunError{Msg: oe.Msg, Hint: oe.Hint}
}
