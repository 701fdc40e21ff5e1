// Package serve is `archlab serve`: the drills, the explorer and the
// class on a web page (ui/web), served on loopback unless --addr says
// otherwise. The page needs net/http, which only the archlab built with
// -tags web links (with_web.go); the everyday one hands serve over.
package serve

import (
	"context"
	"errors"
	"net"
	"os"

	"github.com/spf13/cobra"

	"archlab/drills"
	"archlab/ui/cli"
	"archlab/ui/status"
)

// serveOptions are the flags of `archlab serve`.
type serveOptions struct {
	g    *cli.Env
	addr string
	open bool
	// class is --class DIR, the class page's folder (archlab class);
	// names is --names, which shows the students' names there.
	class string
	names bool
	// ready, when set, is told the page's URL once the server listens
	// (tests).
	ready func(url string)
}

// defaultServeAddr is loopback only: the page runs drills for whoever
// reaches it.
const defaultServeAddr = "127.0.0.1:8017"

// NewCmd is `archlab serve`: the drills, the explorer and the class
// as pages (ui/web), in the archlab built with -tags web.
func NewCmd(g *cli.Env) *cobra.Command {
	o := &serveOptions{g: g}
	cmd := &cobra.Command{
		Use:     "serve [--addr <host:port>] [--open]",
		Short:   g.T("help.serve.short"),
		Long:    g.T("help.serve.long"),
		Example: g.T("help.serve.example"),
		Args:    cli.NoArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&o.addr, "addr", defaultServeAddr, g.T("help.flag.addr"))
	cmd.Flags().BoolVar(&o.open, "open", false, g.T("help.flag.open"))
	cmd.Flags().StringVar(&o.class, "class", "", g.T("help.flag.serve-class"))
	cmd.Flags().BoolVar(&o.names, "names", false, g.T("help.flag.class-names"))
	return cmd
}

// serveWeb serves the page, in the archlab built with -tags web
// (with_web.go); nil in the light one, which hands serve over to that one
// (ui/cli/parts.go). host is --addr's host.
var serveWeb func(o *serveOptions, ctx context.Context, host string) error

// run checks --addr, then serves.
func (o *serveOptions) run(ctx context.Context) error {
	host, port, err := net.SplitHostPort(o.addr)
	if n, ok := drills.ParseDecimal(port); err != nil || !ok || n < 0 || n > 65535 {
		// A port net.Listen refuses ("99999", "http") is the reader's
		// typing, not the machine's (exit 2, not 3).
		return &status.Usage{Msg: o.g.T("err.serve.addr", o.addr)}
	}
	if o.class != "" {
		if info, err := os.Stat(o.class); err != nil || !info.IsDir() {
			reason := o.g.T("class.err.not-folder")
			if err != nil {
				reason = o.g.OSReason(err)
			}
			return &status.Usage{Msg: o.g.T("class.err.dir", o.class, reason)}
		}
	}
	if err := cli.NeedParts("serve", "web"); err != nil {
		return err
	}
	return serveWeb(o, ctx, host)
}

// serveHosts are the hosts the page answers for beside localhost: the
// listen address's, or, for every interface (0.0.0.0, ::, ""), each
// address of this machine, so a class reaches it by the teacher's IP.
func serveHosts(host string) []string {
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		return []string{host}
	}
	var out []string
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			out = append(out, ipn.IP.String())
		}
	}
	return out
}

// loopback reports whether host only accepts connections from this
// machine: localhost or a loopback IP. An empty host, 0.0.0.0 and :: are
// every interface: not loopback.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// unwrapNetErr is the system's reason a listen failed, without the address
// the line already names.
func unwrapNetErr(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}
