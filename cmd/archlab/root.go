package main

import (
	"errors"
	"fmt"
	goio "io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/numflag"
	"archlab/ui/term"
)

// globalOptions are the flags every command has.
type globalOptions struct {
	io      *IO
	lang    i18n.Lang
	noColor bool
	args    []string // the command line: what the command tree must hold (drillCommands)
}

func (g *globalOptions) t(key string, args ...any) string { return i18n.T(g.lang, key, args...) }

// colour reports whether output may be coloured.
func (g *globalOptions) colour() bool {
	return !g.noColor && g.io.Getenv("NO_COLOR") == "" && g.io.Getenv("TERM") != "dumb" && g.io.OutIsTerminal
}

// width is the number of columns output may take.
func (g *globalOptions) width() int { return term.ScreenWidth(g.io.Width) }

// renderer is the terminal's rendering (ui/term) on this run's streams,
// in the reader's language, coloured when colour is on.
func (g *globalOptions) renderer() *term.Renderer {
	return &term.Renderer{Out: g.io.Out, Err: g.io.Err, In: g.io.In, Lang: g.lang, Width: g.width(), P: term.NewPalette(g.colour())}
}

// run builds the command tree in the reader's language and executes it,
// returning the exit status. Every command writes its results through one
// outWriter, checked once at the end: a result that could not be written
// is never an exit 0 (see exitstatus.go).
func run(io *IO, args []string) int {
	if io.Getenv(drillChildEnv) == "1" {
		return serveDrillChild(io, args) // drillchild.go
	}
	var errw goio.Writer = io.Err
	if io.ErrWidth > 0 {
		errw = term.NewStderrWriter(io.Err, term.ScreenWidth(io.ErrWidth))
	}
	args = typedArgs(errw, args)
	out := &outWriter{w: io.Out}
	cio := *io
	cio.Out = out
	cio.Err = errw
	lang, err := pickLang(args, io.Getenv)
	if err != nil {
		return finish(&cio, errw, i18n.FromEnv(io.Getenv), args, out, err)
	}
	g := &globalOptions{io: &cio, lang: lang, args: args}
	root := newRootCmd(g)
	root.SetArgs(namesAfterDashes(root, args))
	err = root.Execute()
	var ne *needsError
	if errors.As(err, &ne) {
		// A run that needs a part this archlab was built without: the
		// archlab that has it runs the same command line (ondemand.go).
		var code int
		if code, err = g.handOver(ne, args); err == nil {
			return outputStatus(errw, lang, out, code)
		}
	}
	return finish(&cio, errw, lang, args, out, err)
}

// finish prints err (on stderr, and as a JSON object on stdout when the
// reader asked for --json) and returns the exit status, once the output's
// fate is known.
func finish(io *IO, stderr goio.Writer, lang i18n.Lang, args []string, out *outWriter, err error) int {
	if out.err != nil && !ownError(err) {
		err = nil // the write error a command passed on: outputStatus says it
	}
	code, msg, hint := describe(err)
	if msg != "" {
		fmt.Fprintln(stderr, "archlab: "+msg)
	}
	if hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	if code != exitOK && code != exitMismatch && wantsJSON(args) && out.err == nil {
		writeJSONError(io.Out, msg, code)
	}
	return outputStatus(stderr, lang, out, code)
}

// wantsJSON reports whether the command line asks for --json (before a
// "--"), whether or not the flag parsed: `--json=maybe` is asking too.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || (strings.HasPrefix(a, "--json=") && a != "--json=false") {
			return true
		}
	}
	return false
}

// namesAfterDashes lets a command's name follow "--": `drill -- ack-lost`
// and `explore -- inbox` mean `drill ack-lost` and `explore inbox`. cobra
// looks for subcommands only before "--", so the word after it is moved in
// front of it when it names a subcommand of the command before it.
func namesAfterDashes(root *cobra.Command, args []string) []string {
	i := slices.Index(args, "--")
	if i < 0 || i+1 >= len(args) {
		return args
	}
	cmd, _, err := root.Find(args[:i])
	if err != nil || cmd == nil {
		return args
	}
	name := args[i+1]
	for _, sub := range cmd.Commands() {
		if sub.Name() == name && !sub.Hidden {
			out := slices.Clone(args[:i])
			out = append(out, name, "--")
			return append(out, args[i+2:]...)
		}
	}
	return args
}

// pickLang reads --lang from the arguments before cobra parses them, because
// help text and flag descriptions must already be in that language when the
// command tree is built. Without --lang the environment decides. As with
// every other flag the last --lang wins, and each one must be zh or en: a
// bad value is refused even when another --lang is good.
func pickLang(args []string, getenv func(string) string) (i18n.Lang, error) {
	lang := i18n.FromEnv(getenv)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		value, ok := strings.CutPrefix(a, "--lang=")
		if !ok && a == "--lang" && i+1 < len(args) {
			value, ok = args[i+1], true
			i++ // the value is not an argument of its own
		}
		if !ok {
			continue
		}
		l, valid := i18n.Parse(value)
		if !valid && len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
			continue // a --lang still being typed, while the shell completes it
		}
		if !valid {
			// Said in the language chosen so far.
			return "", &usageError{Msg: i18n.T(lang, "err.lang", value)}
		}
		lang = l
	}
	return lang, nil
}

func newRootCmd(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:           "archlab",
		Short:         g.t("help.root.short"),
		Long:          g.t("help.root.long"),
		Example:       g.t("help.root.example"),
		SilenceErrors: true,
		SilenceUsage:  true,
		// The root alone does nothing but explain itself, or say its
		// version. -v is handled here, not by cobra, whose --version
		// ignores any arguments after it (`-v extra` exited 0).
		Args: func(cmd *cobra.Command, args []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v && len(args) > 0 {
				return &usageError{Msg: g.t("err.version.args", strings.Join(args, " ")), Hint: g.t("err.hint.help", cmd.CommandPath())}
			}
			if len(args) > 0 {
				return unknownCommand(g, cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if v, _ := cmd.Flags().GetBool("version"); v {
				_, err := fmt.Fprintf(g.io.Out, "archlab %s\n", version())
				return err
			}
			return cmd.Help()
		},
	}
	root.SetOut(g.io.Out)
	root.SetErr(g.io.Err)
	root.SetIn(g.io.In)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		msg := flagError(g, err)
		if near := flagSuggestion(cmd, err); near != "" {
			msg = g.t("err.flag.did-you-mean", msg, near)
		}
		return &usageError{Msg: msg, Hint: g.t("err.hint.help", cmd.CommandPath())}
	})
	// Drill and command names ignore case: ACK-LOST is ack-lost.
	cobra.EnableCaseInsensitive = true
	installHelp(g, root)
	// No default in pflag's sense: the help text says where it comes from,
	// and pflag would add a second "(default …)".
	root.PersistentFlags().String("lang", "", g.t("help.flag.lang"))
	root.PersistentFlags().BoolVar(&g.noColor, "no-color", false, g.t("help.flag.no-color"))
	root.Flags().BoolP("version", "v", false, g.t("help.flag.version"))
	root.PersistentFlags().BoolP("help", "h", false, g.t("help.flag.help"))
	// archlab completion bash|zsh|fish|powershell: cobra's scripts, our
	// command (its help in the reader's language).
	root.CompletionOptions.DisableDefaultCmd = true

	// cobra's own help command, with its one-line help in the reader's
	// language.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: g.t("help.help.short"),
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if target == nil || err != nil || len(rest) > 0 {
				return &usageError{Msg: g.t("err.help.unknown", strings.Join(args, " ")), Hint: g.t("err.hint.help", "archlab")}
			}
			return target.Help()
		},
	})
	root.AddCommand(newDrillCmd(g), newListCmd(g), newExplainCmd(g), newVersionCmd(g))
	root.AddCommand(newExploreCmd(g))
	root.AddCommand(newCheckCmd(g), newClassCmd(g))
	root.AddCommand(newServeCmd(g))
	root.AddCommand(newCompletionCmd(g, root))
	registerCompletions(root)
	// The consumer process of --crash real: archlab started by itself.
	return root
}

// flagError says in the reader's language what pflag found wrong with a
// flag; an error pflag does not type is passed on as it is.
func flagError(g *globalOptions, err error) string {
	var unknown *pflag.NotExistError
	var missing *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &unknown):
		name := "--" + unknown.GetSpecifiedName()
		if unknown.GetSpecifiedShortnames() != "" { // -z, or -z inside -xz
			name = "-" + unknown.GetSpecifiedName()
		}
		return g.t("err.flag.unknown", name)
	case errors.As(err, &missing):
		return g.t("err.flag.needs-value", "--"+missing.GetFlag().Name)
	case errors.As(err, &invalid):
		name := "--" + invalid.GetFlag().Name
		var de *numflag.Error
		if errors.As(err, &de) {
			return numflag.Message(g.lang, name, de)
		}
		var pe *dbPathError
		if errors.As(err, &pe) {
			if pe.key == "err.db.dash" { // with the name to write instead
				return g.t(pe.key, pe.value, "./"+pe.value)
			}
			return g.t(pe.key, pe.value)
		}
		key := "err.flag.invalid"
		switch invalid.GetFlag().Value.Type() {
		case "int":
			key = "err.flag.not-a-number"
		case "bool":
			key = "err.flag.bool"
		}
		return g.t(key, name, invalid.GetValue())
	}
	return err.Error()
}

// unknownCommand names the bad word and the nearest real commands.
func unknownCommand(g *globalOptions, cmd *cobra.Command, name string) error {
	e := &usageError{Msg: g.t("err.unknown-command", name, cmd.CommandPath())}
	// By edit distance, not only by prefix as cobra's SuggestionsFor
	// does when called by hand: chek, lst, drll and explane are typos.
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	switch near := drills.Nearest(strings.ToLower(name), names, 3); {
	case len(near) > 0:
		e.Hint = g.t("err.hint.did-you-mean", strings.Join(near, ", "))
	case cmd == cmd.Root() && isDrill(name):
		// `archlab ack-lost`: a drill's name where a command goes.
		e.Hint = g.t("err.hint.did-you-mean", "archlab drill "+strings.ToLower(name))
	default:
		e.Hint = g.t("err.hint.help", cmd.CommandPath())
	}
	return e
}

// isDrill reports whether name is a drill's name.
func isDrill(name string) bool {
	_, err := drills.Lookup(name)
	return err == nil
}

// version is the module version from the build info, "(devel)" in a
// checkout, with the VCS revision when the build recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "+dirty"
		}
	}
	return v + " " + info.GoVersion
}

func newVersionCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: g.t("help.version.short"),
		Args:  noArgs(g),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(g.io.Out, "archlab %s\n", version())
			return err
		},
	}
}
