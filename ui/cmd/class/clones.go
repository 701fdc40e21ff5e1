package class

import (
	"context"
	"os"

	"archlab/adapters/ondemand"
	"archlab/check"
	"archlab/ui/class"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// read reads the class in dir: its result files, or with --clones the
// students' repositories, each checked with this archlab's sources
// (ui/class/clones.go).
func (o *classOptions) read(dir string) (*class.Class, error) {
	g := o.g
	if !o.clones {
		return class.Read(g.Lang, dir)
	}
	root, err := ondemand.SourceRoot()
	if err != nil {
		return nil, &status.CouldNotRun{Msg: g.T("class.err.clones-source", err)}
	}
	work, err := os.MkdirTemp("", "archlab-class-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	ctx, stop := status.SignalContext(context.Background())
	defer stop()
	c, err := class.Grade(ctx, g.Lang, root, cli.Version(), dir, work, check.DefaultTimeout, g.IO.Err)
	if ctx.Err() != nil {
		return nil, &status.Interrupted{Msg: g.T("check.err.interrupted"), Code: status.SignalStatus(ctx)}
	}
	return c, err
}
