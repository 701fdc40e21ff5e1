package main

import (
	"strings"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/explore"
	"archlab/i18n"
)

// newCompletionCmd is `archlab completion SHELL`: cobra's own scripts,
// with help in the reader's language (cobra's default command speaks
// English only).
func newCompletionCmd(g *globalOptions, root *cobra.Command) *cobra.Command {
	var noDesc bool
	cmd := &cobra.Command{
		Use:   "completion {bash | zsh | fish | powershell}",
		Short: g.t("help.completion.short"),
		Long:  g.t("help.completion.long"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(g, cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return &usageError{Msg: g.t("err.completion.shell"), Hint: g.t("err.hint.help", cmd.CommandPath())}
		},
	}
	shells := []struct {
		name string
		gen  func() error
	}{
		{"bash", func() error { return root.GenBashCompletionV2(g.io.Out, !noDesc) }},
		{"zsh", func() error {
			if noDesc {
				return root.GenZshCompletionNoDesc(g.io.Out)
			}
			return root.GenZshCompletion(g.io.Out)
		}},
		{"fish", func() error { return root.GenFishCompletion(g.io.Out, !noDesc) }},
		{"powershell", func() error {
			if noDesc {
				return root.GenPowerShellCompletion(g.io.Out)
			}
			return root.GenPowerShellCompletionWithDesc(g.io.Out)
		}},
	}
	for _, sh := range shells {
		sub := &cobra.Command{
			Use:                   sh.name,
			Short:                 g.t("help.completion.shell.short", sh.name),
			Long:                  g.t("help.completion." + sh.name + ".long"),
			Args:                  noArgs(g),
			DisableFlagsInUseLine: true,
			ValidArgsFunction:     cobra.NoFileCompletions,
			RunE:                  func(*cobra.Command, []string) error { return sh.gen() },
		}
		sub.Flags().BoolVar(&noDesc, "no-descriptions", false, g.t("help.flag.no-descriptions"))
		cmd.AddCommand(sub)
	}
	return cmd
}

// flagValues are the values a flag takes, by flag name, wherever the flag
// is: a shell completes them after the flag. A flag with free values (a
// path, an address) is completed by the shell's own rules.
func flagValues() map[string][]string {
	sections := make([]string, len(drills.Sections))
	for i, s := range drills.Sections {
		sections[i] = s.ID
	}
	return map[string][]string{
		"chapter": sections,
		"verbs":   sections,
		"lang":    {string(i18n.ZH), string(i18n.EN)},
		"broker":  {"memory", "nats", "kafka"},
		"store":   {"memory", "sqlite"},
		"crash":   {"model", "real"},
		"engine":  {string(explore.EngineStates), string(explore.EngineEnumerate)},
		"format":  {"text", "exercism"},
	}
}

// freeFlags take a value that is not from a list: the shell completes a
// file name (--file, --db) or nothing.
var freeFlags = map[string]cobra.ShellCompDirective{
	"file":          cobra.ShellCompDirectiveDefault,
	"db":            cobra.ShellCompDirectiveDefault,
	"addr":          cobra.ShellCompDirectiveNoFileComp,
	"nats-url":      cobra.ShellCompDirectiveNoFileComp,
	"kafka-brokers": cobra.ShellCompDirectiveNoFileComp,
	"output-dir":    cobra.ShellCompDirectiveFilterDirs,
	"save":          cobra.ShellCompDirectiveFilterDirs, // class --save
	"class":         cobra.ShellCompDirectiveFilterDirs, // serve --class
	"timeout":       cobra.ShellCompDirectiveNoFileComp,
}

// registerCompletions walks the command tree once it is built: every flag
// with enumerated values completes them, and `explain` completes the names
// of the drills and exercises.
func registerCompletions(root *cobra.Command) {
	values := flagValues()
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for name, vals := range values {
			if cmd.LocalFlags().Lookup(name) == nil {
				continue
			}
			_ = cmd.RegisterFlagCompletionFunc(name, fixedValues(vals))
		}
		for name, dir := range freeFlags {
			if cmd.LocalFlags().Lookup(name) == nil {
				continue
			}
			_ = cmd.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return nil, dir
			})
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if explain, _, err := root.Find([]string{"explain"}); err == nil {
		var names []string
		for _, d := range drills.All() {
			names = append(names, d.Name)
		}
		names = append(names, check.Names()...)
		explain.ValidArgsFunction = func(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return withPrefix(names, prefix), cobra.ShellCompDirectiveNoFileComp
		}
	}
}

func fixedValues(vals []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(vals, prefix), cobra.ShellCompDirectiveNoFileComp
	}
}

// withPrefix is the values that start with what the reader has typed.
func withPrefix(vals []string, prefix string) []string {
	var out []string
	for _, v := range vals {
		if strings.HasPrefix(v, strings.ToLower(prefix)) {
			out = append(out, v)
		}
	}
	return out
}
