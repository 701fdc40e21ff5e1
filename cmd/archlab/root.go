package main

import (
	"errors"
	"fmt"
	goio "io"
	"strings"

	"github.com/spf13/cobra"

	"archlab/i18n"
	"archlab/ui/cli"
	"archlab/ui/cmd/check"
	"archlab/ui/cmd/class"
	"archlab/ui/cmd/completion"
	"archlab/ui/cmd/drill"
	"archlab/ui/cmd/explain"
	"archlab/ui/cmd/explore"
	"archlab/ui/cmd/list"
	"archlab/ui/cmd/serve"
	"archlab/ui/status"
	"archlab/ui/term"
)

// run builds the command tree in the reader's language and executes it,
// returning the exit status. Every command writes its results through one
// outWriter, checked once at the end: a result that could not be written
// is never an exit 0 (see exitstatus.go).
func run(io *cli.IO, args []string) int {
	if io.Getenv(drill.ChildEnv) == "1" {
		return drill.ServeChild(io, args, run) // ui/cmd/drill/child.go
	}
	var errw goio.Writer = io.Err
	if io.ErrWidth > 0 {
		errw = term.NewStderrWriter(io.Err, term.ScreenWidth(io.ErrWidth))
	}
	args = cli.TypedArgs(errw, args)
	out := &outWriter{w: io.Out}
	cio := *io
	cio.Out = out
	cio.Err = errw
	lang, err := cli.PickLang(args, io.Getenv)
	if err != nil {
		return finish(&cio, errw, i18n.FromEnv(io.Getenv), args, out, err)
	}
	g := &cli.Env{IO: &cio, Lang: lang, Args: args}
	root := newRootCmd(g)
	root.SetArgs(cli.NamesAfterDashes(root, args))
	err = root.Execute()
	var ne *cli.NeedsError
	if errors.As(err, &ne) {
		// A run that needs a part this archlab was built without: the
		// archlab that has it runs the same command line (ui/cli/parts.go).
		var code int
		if code, err = g.HandOver(ne, args); err == nil {
			return outputStatus(errw, lang, out, code)
		}
	}
	return finish(&cio, errw, lang, args, out, err)
}

// finish prints err (on stderr, and as a JSON object on stdout when the
// reader asked for --json) and returns the exit status, once the output's
// fate is known.
func finish(io *cli.IO, stderr goio.Writer, lang i18n.Lang, args []string, out *outWriter, err error) int {
	if out.err != nil && !status.Own(err) {
		err = nil // the write error a command passed on: outputStatus says it
	}
	code, msg, hint := describe(err)
	if msg != "" {
		fmt.Fprintln(stderr, "archlab: "+msg)
	}
	if hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	if code != exitOK && code != exitMismatch && cli.WantsJSON(args) && out.err == nil {
		writeJSONError(io.Out, msg, code)
	}
	return outputStatus(stderr, lang, out, code)
}

// Drill and command names ignore case: ACK-LOST is ack-lost. cobra keeps
// it in a package variable: set once, not by every root command (tests
// build several at once).
func init() { cobra.EnableCaseInsensitive = true }

// newRootCmd is the command tree in the reader's language: help, errors
// and suggestions as ui/cli words them, every command below it.
func newRootCmd(g *cli.Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "archlab",
		Short:         g.T("help.root.short"),
		Long:          g.T("help.root.long"),
		Example:       g.T("help.root.example"),
		SilenceErrors: true,
		SilenceUsage:  true,
		// The root alone does nothing but explain itself, or say its
		// version. -v is handled here, not by cobra, whose --version
		// ignores any arguments after it (`-v extra` exited 0).
		Args: func(cmd *cobra.Command, args []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v && len(args) > 0 {
				return &status.Usage{Msg: g.T("err.version.args", strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
			}
			if len(args) > 0 {
				return cli.UnknownCommand(g, cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v {
				_, err := fmt.Fprintf(g.IO.Out, "archlab %s\n", cli.Version())
				return err
			}
			return cmd.Help()
		},
	}
	root.SetOut(g.IO.Out)
	root.SetErr(g.IO.Err)
	root.SetIn(g.IO.In)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		msg := cli.FlagError(g, err)
		if near := cli.FlagSuggestion(cmd, err); near != "" {
			msg = g.T("err.flag.did-you-mean", msg, near)
		}
		return &status.Usage{Msg: msg, Hint: g.T("err.hint.help", cmd.CommandPath())}
	})
	cli.InstallHelp(g, root)
	// No default in pflag's sense: the help text says where it comes from,
	// and pflag would add a second "(default …)".
	root.PersistentFlags().String("lang", "", g.T("help.flag.lang"))
	root.PersistentFlags().BoolVar(&g.NoColor, "no-color", false, g.T("help.flag.no-color"))
	root.Flags().BoolP("version", "v", false, g.T("help.flag.version"))
	root.PersistentFlags().BoolP("help", "h", false, g.T("help.flag.help"))
	// archlab completion bash|zsh|fish|powershell: cobra's scripts, our
	// command (its help in the reader's language).
	root.CompletionOptions.DisableDefaultCmd = true

	// cobra's own help command, with its one-line help in the reader's
	// language.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: g.T("help.help.short"),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if target == nil || err != nil || len(rest) > 0 {
				return &status.Usage{Msg: g.T("err.help.unknown", strings.Join(args, " ")), Hint: g.T("err.hint.help", "archlab")}
			}
			return target.Help()
		},
	})
	root.AddCommand(drill.NewCmd(g), list.NewCmd(g), explain.NewCmd(g), newVersionCmd(g))
	root.AddCommand(explore.NewCmd(g))
	root.AddCommand(check.NewCmd(g), class.NewCmd(g))
	root.AddCommand(serve.NewCmd(g))
	root.AddCommand(completion.NewCmd(g, root))
	cli.RegisterCompletions(root)
	// The consumer process of --crash real: archlab started by itself.
	return root
}

// newVersionCmd is `archlab version`, as -v says it.
func newVersionCmd(g *cli.Env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: g.T("help.version.short"),
		Args:  cli.NoArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(g.IO.Out, "archlab %s\n", cli.Version())
			return err
		},
	}
}
