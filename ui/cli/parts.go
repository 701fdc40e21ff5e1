package cli

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
// its own that only that tag compiles (ui/cmd/drill/with_sqlite.go and
// with_brokers.go, ui/cmd/serve/with_web.go), which calls Link. A run that
// needs a part not linked is checked as usual, then handed to the archlab
// built with it, which adapters/ondemand builds once from the clone into
// the user's cache.

// linked are the parts this binary was built with.
var linked = map[string]bool{}

// Link records that this binary was built with part's tag: the init of
// the file that tag compiles calls it.
func Link(part string) { linked[part] = true }

// Linked reports whether this binary was built with part's tag.
func Linked(part string) bool { return linked[part] }

// NeedsError is a run this archlab cannot do: it was built without a part
// the run needs. cmd hands the command line to an archlab built with the
// parts (HandOver); it never reaches the reader as an error.
type NeedsError struct {
	Parts []string // the build tags the run needs, sorted
	Asker string   // what asked for them: "--broker nats", "serve"
}

func (e *NeedsError) Error() string { return e.Asker + " needs -tags " + strings.Join(e.Parts, ",") }

// NeedParts is nil when this binary has every part, and otherwise the
// NeedsError that hands the run over. The variant named is the run's
// parts, not this binary's plus them: each set of parts is built once.
func NeedParts(asker string, parts ...string) error {
	if !slices.ContainsFunc(parts, func(p string) bool { return !linked[p] }) {
		return nil
	}
	parts = slices.Clone(parts)
	slices.Sort(parts)
	return &NeedsError{Parts: slices.Compact(parts), Asker: asker}
}

// HandOver builds (once) the archlab with the parts the run needs and runs
// the same command line in it (adapters/ondemand). It returns the exit
// status of that run, or an error if it could not start it.
func (g *Env) HandOver(ne *NeedsError, args []string) (int, error) {
	bin, err := g.Variant(context.Background(), ne)
	if err != nil {
		return 0, err
	}
	io := g.IO
	code, err := ondemand.HandOver(bin, args, ondemand.Streams{In: io.In, Out: io.Out, Err: io.Err, Getenv: io.Getenv,
		Width: io.Width, OutIsTerminal: io.OutIsTerminal, InIsTerminal: io.InIsTerminal, Replace: io.Replace}, g.Lang)
	return code, ondemandError(context.Background(), err)
}

// Variant is the archlab built with ne's parts, built first if it must
// be; Ctrl-C stops the build.
func (g *Env) Variant(ctx context.Context, ne *NeedsError) (string, error) {
	ctx, stop := status.SignalContext(ctx)
	defer stop()
	want := ondemand.Want{Parts: ne.Parts, Asker: ne.Asker, Lang: g.Lang, Err: g.IO.Err}
	if !WantsJSON(g.Args) {
		want.Tick = g.IO.ErrTerminal // a person watches: the build's seconds
	}
	bin, err := ondemand.Variant(ctx, want)
	return bin, ondemandError(ctx, err)
}

// ondemandError is the builder's error as the kind cmd exits with: a
// build a signal stopped is 128+signal, anything else exit 3.
func ondemandError(ctx context.Context, err error) error {
	var oe *ondemand.Error
	switch {
	case !errors.As(err, &oe):
		return err
	case oe.Interrupted:
		return &status.Interrupted{Msg: oe.Msg, Code: status.SignalStatus(ctx)}
	}
	return &status.CouldNotRun{Msg: oe.Msg, Hint: oe.Hint}
}
