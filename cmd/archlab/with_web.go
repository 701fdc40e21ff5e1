//go:build web

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

	"archlab/ui/web"
)

// This file is the part of `archlab serve` that needs net/http and the web
// page (ui/web). Linking net/http costs every command's start-up, so only
// the archlab built with -tags web has it; the everyday archlab hands
// serve to that one (ondemand.go).
func init() { serveWeb = (*serveOptions).serve }

// serve listens, serves until Ctrl-C (or SIGTERM), then shuts the server
// down cleanly: open requests finish, new ones are refused. Stopping the
// server is its normal end, so it exits 0.
func (o *serveOptions) serve(ctx context.Context, host string) error {
	g := o.g
	if !loopback(host) {
		fmt.Fprintln(g.io.Err, g.t("serve.public", o.addr))
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return &couldNotRunError{msg: g.t("err.serve.listen", o.addr, unwrapNetErr(err))}
	}
	url := "http://" + ln.Addr().String() + "/"
	srv := &http.Server{
		Handler:           web.New(g.lang),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signalContext(ctx)
	defer stop()
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
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(g.io.Err, g.t("serve.stopped"))
	return err
}

// loopback reports whether host only accepts connections from this
// machine: localhost or a loopback IP. An empty host is every interface.
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
