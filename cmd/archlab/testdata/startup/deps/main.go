// Command deps is BenchmarkStartup's second floor: it imports every
// package outside archlab that archlab's own packages import, and does
// nothing. Its start-up is the dependencies' init cost, which archlab pays
// before its first line of code runs.
package main

import (
	_ "github.com/fatih/color"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/nats-io/nats-server/v2/server"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/nats-io/nuid"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/olekukonko/tablewriter/tw"
	_ "github.com/rogpeppe/go-internal/txtar"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/pflag"
	_ "github.com/twmb/franz-go/pkg/kadm"
	_ "github.com/twmb/franz-go/pkg/kfake"
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "modernc.org/sqlite"
	_ "modernc.org/sqlite/lib"
)

func main() {}
