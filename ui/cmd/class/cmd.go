// Package class is `archlab class`: it reads a class's check results (a
// folder of result files or of student clones) through ui/class and lays
// out the counts.
package class

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/spf13/cobra"

	"archlab/ui/class"
	"archlab/ui/cli"
	"archlab/ui/status"
	"archlab/ui/term"
)

// classOptions are the flags of `archlab class DIR`.
type classOptions struct {
	g     *cli.Env
	json  bool
	names bool
	save  string
	// clones: DIR holds the students' repositories, to be checked here
	// (class_clones.go), not their results.
	clones bool
}

// NewCmd is `archlab class DIR`: a class's check results counted
// (ui/class reads, counts and lays them out).
func NewCmd(g *cli.Env) *cobra.Command {
	o := &classOptions{g: g}
	cmd := &cobra.Command{
		Use:     "class <dir>",
		Short:   g.T("help.class.short"),
		Long:    g.T("help.class.long"),
		Example: g.T("help.class.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &status.Usage{Msg: g.T("err.class.args", len(args)), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(args[0]) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, g.T("help.flag.json"))
	cmd.Flags().BoolVar(&o.names, "names", false, g.T("help.flag.class-names"))
	cmd.Flags().StringVar(&o.save, "save", "", g.T("help.flag.class-save"))
	cmd.Flags().BoolVar(&o.clones, "clones", false, g.T("help.flag.class-clones"))
	return cmd
}

// run reads DIR, counts it and prints the count; a folder that is not
// there is the reader's typing (exit 2), one that cannot be read the
// machine's (exit 3).
func (o *classOptions) run(dir string) error {
	g := o.g
	c, err := o.read(dir)
	if status.Own(err) {
		return err
	}
	if err != nil {
		msg := g.T("class.err.dir", dir, g.OSReason(err))
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return &status.Usage{Msg: msg}
		}
		return &status.CouldNotRun{Msg: msg}
	}
	s := class.Count(g.Lang, c)
	if !o.names {
		s.Hide(c)
	}
	r := g.Renderer()
	class.Refusals(r, s)
	if o.save != "" {
		if _, err := class.Save(s, o.save); err != nil {
			return &status.CouldNotRun{Msg: g.T("class.err.save", o.save, g.OSReason(err))}
		}
	}
	if o.json {
		return term.WriteJSON(g.IO.Out, s)
	}
	return class.Text(r, s, o.names, g.Command(), o.save)
}

// isNotDir: the path is a file, not a folder.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
