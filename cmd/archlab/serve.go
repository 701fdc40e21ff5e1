package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"archlab/drills"
	"archlab/ui/web"
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
		Args:    noArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&o.addr, "addr", defaultServeAddr, g.t("help.flag.addr"))
	cmd.Flags().BoolVar(&o.open, "open", false, g.t("help.flag.open"))
	return cmd
}

// run listens and serves until Ctrl-C (or SIGTERM), then shuts the server
// down: the runs in flight are cancelled, open requests get their answer,
// new ones are refused, and the command exits 130 (or 143) like any
// command a signal stopped.
func (o *serveOptions) run(ctx context.Context) error {
	g := o.g
	host, port, err := net.SplitHostPort(o.addr)
	if n, ok := drills.ParseDecimal(port); err != nil || !ok || n < 0 || n > 65535 {
		// A port net.Listen refuses ("99999", "http") is the reader's
		// typing, not the machine's (exit 2, not 3).
		return &usageError{msg: g.t("err.serve.addr", o.addr)}
	}
	if !loopback(host) {
		fmt.Fprintln(g.io.Err, g.t("serve.public", o.addr))
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return &couldNotRunError{msg: g.t("err.serve.listen", o.addr, unwrapNetErr(err))}
	}
	url := "http://" + ln.Addr().String() + "/"
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	// Every request's context ends when the server stops, so a drill run
	// in flight stops between two steps instead of holding the shutdown.
	runs, cancelRuns := context.WithCancel(context.Background())
	defer cancelRuns()
	srv := &http.Server{
		Handler:           web.NewWith(web.Options{Lang: g.lang, Hosts: serveHosts(host)}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return runs },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintln(g.io.Out, g.t("serve.listening", url))
	if o.ready != nil {
		o.ready(url)
	}
	if o.open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintln(g.io.Err, g.t("serve.no-open", err, url))
		}
	}
	select {
	case err := <-done:
		return &couldNotRunError{msg: g.t("err.serve.listen", o.addr, err)}
	case <-ctx.Done():
	}
	cancelRuns()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close() // a request that would not end: cut it
	}
	<-done
	return &interruptedError{msg: g.t("serve.stopped"), code: signalStatus(ctx)}
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

func unwrapNetErr(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
