// Command depslinked is deps with the entry points archlab calls linked
// in (never called): the dependencies' code in the binary, as large as
// archlab's, without archlab's own. A blank import lets the linker drop
// what is never called; a server embedded in archlab is not dropped, and
// a larger binary costs something to start (more pages to map and fault
// in). That cost is the dependencies', not archlab's: this floor counts
// it.
package main

import (
	"database/sql"

	"github.com/fatih/color"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/olekukonko/tablewriter"
	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	_ "modernc.org/sqlite"

	_ "github.com/mattn/go-runewidth"
	_ "github.com/nats-io/nuid"
	_ "github.com/olekukonko/tablewriter/tw"
	_ "github.com/rogpeppe/go-internal/txtar"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/term"
	_ "modernc.org/sqlite/lib"
)

// linked holds the entry points; main never calls them.
var linked = []any{
	server.NewServer, (*server.Server).Start, nats.Connect, jetstream.New,
	kgo.NewClient, kadm.NewClient, kfake.NewCluster,
	sql.Open, tablewriter.NewWriter, color.New, (*cobra.Command).Execute,
}

func main() {
	if len(linked) == 0 {
		panic("unreachable")
	}
}
