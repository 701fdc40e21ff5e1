// Command depsbefore is deps without the broker clients and servers: the
// floor before issue 16 added them, measured in the same run.
package main

import (
	_ "github.com/fatih/color"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/olekukonko/tablewriter/tw"
	_ "github.com/rogpeppe/go-internal/txtar"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "modernc.org/sqlite"
	_ "modernc.org/sqlite/lib"
)

func main() {}
