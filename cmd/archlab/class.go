package main

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/spf13/cobra"

	"archlab/check/class"
	"archlab/ui/status"
	"archlab/ui/term"
)

// classOptions are the flags of `archlab class DIR`.
type classOptions struct {
	g     *globalOptions
	json  bool
	names bool
	save  string
}

func newClassCmd(g *globalOptions) *cobra.Command {
	o := &classOptions{g: g}
	cmd := &cobra.Command{
		Use:     "class <dir>",
		Short:   g.t("help.class.short"),
		Long:    g.t("help.class.long"),
		Example: g.t("help.class.example"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{Msg: g.t("err.class.args", len(args)), Hint: g.t("err.hint.help", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(args[0]) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, g.t("help.flag.json"))
	cmd.Flags().BoolVar(&o.names, "names", false, g.t("help.flag.class-names"))
	cmd.Flags().StringVar(&o.save, "save", "", g.t("help.flag.class-save"))
	return cmd
}

// run reads DIR, counts it and prints the count; a folder that is not
// there is the reader's typing (exit 2), one that cannot be read the
// machine's (exit 3).
func (o *classOptions) run(dir string) error {
	g := o.g
	c, err := class.Read(g.lang, dir)
	if err != nil {
		msg := g.t("class.err.dir", dir, osReason(g, err))
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return &usageError{Msg: msg}
		}
		return &status.CouldNotRun{Msg: msg}
	}
	s := class.Count(g.lang, c)
	if !o.names {
		s.Hide(c)
	}
	r := g.renderer()
	class.Refusals(r, s)
	if o.save != "" {
		if _, err := class.Save(s, o.save); err != nil {
			return &status.CouldNotRun{Msg: g.t("class.err.save", o.save, osReason(g, err))}
		}
	}
	if o.json {
		return term.WriteJSON(g.io.Out, s)
	}
	return class.Text(r, s, o.names, g.command(), o.save)
}

// isNotDir: the path is a file, not a folder.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
