//go:build web

package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/web"
)

// This file is the part of `archlab serve` that needs net/http and the web
// page (ui/web). Linking net/http costs every command's start-up, so only
// the archlab built with -tags web has it; the everyday archlab hands
// serve to that one (ui/cli/parts.go).
func init() { serveWeb = (*serveOptions).serve; cli.Link("web") }

// serve listens and serves until Ctrl-C (or SIGTERM), then shuts the
// server down: the runs in flight are cancelled, open requests get their
// answer, new ones are refused, and the command exits 130 (or 143) like
// any command a signal stopped.
func (o *serveOptions) serve(ctx context.Context, host string) error {
	g := o.g
	if !loopback(host) {
		fmt.Fprintln(g.IO.Err, g.T("serve.public", o.addr))
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return &status.CouldNotRun{Msg: g.T("err.serve.listen", o.addr, unwrapNetErr(err))}
	}
	url := "http://" + ln.Addr().String() + "/"
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := status.SignalContext(ctx)
	defer stop()
	// Every request's context ends when the server stops, so a drill run
	// in flight stops between two steps instead of holding the shutdown.
	runs, cancelRuns := context.WithCancel(context.Background())
	defer cancelRuns()
	srv := &http.Server{
		Handler:           web.NewWith(web.Options{Lang: g.Lang, Hosts: serveHosts(host), Class: o.class, ClassNames: o.names}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return runs },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintln(g.IO.Out, g.T("serve.listening", url))
	if o.ready != nil {
		o.ready(url)
	}
	if o.open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintln(g.IO.Err, g.T("serve.no-open", err, url))
		}
	}
	select {
	case err := <-done:
		return &status.CouldNotRun{Msg: g.T("err.serve.listen", o.addr, err)}
	case <-ctx.Done():
	}
	cancelRuns()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close() // a request that would not end: cut it
	}
	<-done
	return &status.Interrupted{Msg: g.T("serve.stopped"), Code: status.SignalStatus(ctx)}
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
