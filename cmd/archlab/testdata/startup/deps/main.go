// Command deps is BenchmarkStartup's second floor: it imports every
// package outside archlab that the light archlab imports, and does
// nothing. Its start-up is the dependencies' init cost (and, through
// pflag's import of net, the dynamic linking of a cgo binary), which
// archlab pays before its first line of code runs.
package main

import (
	_ "github.com/fatih/color"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/rogpeppe/go-internal/txtar"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/term"
)

func main() {}
