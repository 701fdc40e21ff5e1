package main

import (
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/internal/i18n"
)

// globalOptions are the flags every command has.
type globalOptions struct {
	io      *IO
	lang    i18n.Lang
	noColor bool
}

func (g *globalOptions) t(key string, args ...any) string { return i18n.T(g.lang, key, args...) }

// colour reports whether output may be coloured.
func (g *globalOptions) colour() bool {
	return !g.noColor && g.io.Getenv("NO_COLOR") == "" && g.io.OutIsTerminal
}

// run builds the command tree in the reader's language and executes it,
// returning the exit status.
func run(io *IO, args []string) int {
	lang, err := pickLang(args, io.Getenv)
	if err != nil {
		return exitCode(io.Err, i18n.EN, err)
	}
	g := &globalOptions{io: io, lang: lang}
	root := newRootCmd(g)
	root.SetArgs(args)
	return exitCode(io.Err, lang, root.Execute())
}

// pickLang reads --lang from the arguments before cobra parses them, because
// help text and flag descriptions must already be in that language when the
// command tree is built. Without --lang the environment decides.
func pickLang(args []string, getenv func(string) string) (i18n.Lang, error) {
	for i, a := range args {
		if a == "--" {
			break
		}
		value, found := strings.CutPrefix(a, "--lang=")
		if !found && a == "--lang" && i+1 < len(args) {
			value, found = args[i+1], true
		}
		if found {
			if l, ok := i18n.Parse(value); ok {
				return l, nil
			}
			lang := i18n.FromEnv(getenv)
			return "", &usageError{msg: i18n.T(lang, "err.lang", value)}
		}
	}
	return i18n.FromEnv(getenv), nil
}

func newRootCmd(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:           "archlab",
		Short:         g.t("help.root.short"),
		Long:          g.t("help.root.long"),
		Example:       g.t("help.root.example"),
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		// The root alone does nothing but explain itself.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(g, cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetOut(g.io.Out)
	root.SetErr(g.io.Err)
	root.SetIn(g.io.In)
	root.SetVersionTemplate("archlab {{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{msg: flagError(g, err), hint: g.t("err.hint.help", cmd.CommandPath())}
	})
	if g.lang == i18n.ZH {
		cobra.AddTemplateFunc("zhDefaults", zhDefaults)
		root.SetUsageTemplate(zhUsageTemplate)
	}
	root.PersistentFlags().String("lang", string(g.lang), g.t("help.flag.lang"))
	root.PersistentFlags().BoolVar(&g.noColor, "no-color", false, g.t("help.flag.no-color"))
	root.Flags().BoolP("version", "v", false, g.t("help.flag.version"))
	root.PersistentFlags().BoolP("help", "h", false, g.t("help.flag.help"))
	root.CompletionOptions.DisableDefaultCmd = true

	// cobra's own help command, with its one-line help in the reader's
	// language.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: g.t("help.help.short"),
		Run: func(cmd *cobra.Command, args []string) {
			target, _, err := root.Find(args)
			if target == nil || err != nil {
				target = root
			}
			_ = target.Help()
		},
	})
	root.AddCommand(newDrillCmd(g), newListCmd(g), newExplainCmd(g), newVersionCmd(g))
	root.AddCommand(newExploreCmd(g))
	// The consumer process of --crash real: archlab started by itself.
	root.AddCommand(newConsumerCmd())
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
		var de *decimalError
		if errors.As(err, &de) {
			return decimalMessage(g, name, de)
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
	e := &usageError{msg: g.t("err.unknown-command", name, cmd.CommandPath())}
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		e.hint = g.t("err.hint.did-you-mean", strings.Join(s, ", "))
	} else {
		e.hint = g.t("err.hint.help", cmd.CommandPath())
	}
	return e
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
	}
	return v
}

func newVersionCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: g.t("help.version.short"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(g.io.Out, "archlab %s\n", version())
			return err
		},
	}
}

// zhDefaults translates the "(default …)" pflag appends to a flag's help.
func zhDefaults(s string) string {
	return pflagDefault.ReplaceAllString(s, "（默认值 $1）")
}

var pflagDefault = regexp.MustCompile(` \(default ([^)\n]*)\)`)

// zhUsageTemplate is cobra's default usage template with its headings in
// Chinese.
const zhUsageTemplate = `用法：{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [命令]{{end}}{{if gt (len .Aliases) 0}}

别名：
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

示例：
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

可用命令：{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

选项：
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces | zhDefaults}}{{end}}{{if .HasAvailableInheritedFlags}}

全局选项：
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces | zhDefaults}}{{end}}{{if .HasHelpSubCommands}}

其他帮助主题：{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

使用 "{{.CommandPath}} [命令] --help" 查看命令的详细说明。{{end}}
`
