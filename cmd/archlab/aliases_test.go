package main

import "archlab/ui/cli"

// IO is the process's streams as the tests build them (ui/cli).
type IO = cli.IO
