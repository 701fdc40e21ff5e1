package main

import (
	"context"
	"net"

	"github.com/spf13/cobra"
)

// serveOptions are the flags of `archlab serve`.
type serveOptions struct {
	g    *globalOptions
	addr string
	open bool
	// ready, when set, is told the page's URL once the server listens
	// (tests).
	ready func(url string)
}

// defaultServeAddr is loopback only: the page runs drills for whoever
// reaches it.
const defaultServeAddr = "127.0.0.1:8017"

func newServeCmd(g *globalOptions) *cobra.Command {
	o := &serveOptions{g: g}
	cmd := &cobra.Command{
		Use:     "serve [--addr <host:port>] [--open]",
		Short:   g.t("help.serve.short"),
		Long:    g.t("help.serve.long"),
		Example: g.t("help.serve.example"),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&o.addr, "addr", defaultServeAddr, g.t("help.flag.addr"))
	cmd.Flags().BoolVar(&o.open, "open", false, g.t("help.flag.open"))
	return cmd
}

// serveWeb serves the page, in the archlab built with -tags web
// (with_web.go); nil in the light one, which hands serve over to that one
// (ondemand.go). host is --addr's host.
var serveWeb func(o *serveOptions, ctx context.Context, host string) error

// run checks --addr, then serves.
func (o *serveOptions) run(ctx context.Context) error {
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return &usageError{msg: o.g.t("err.serve.addr", o.addr)}
	}
	if err := needParts("serve", "web"); err != nil {
		return err
	}
	return serveWeb(o, ctx, host)
}
