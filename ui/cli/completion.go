package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"archlab/check"
	"archlab/drills"
	"archlab/explore"
	"archlab/harness"
	"archlab/i18n"
)

// FlagValues are the values a flag takes, by flag name, wherever the flag
// is: a shell completes them after the flag. A flag with free values (a
// path, an address) is completed by the shell's own rules.
func FlagValues() map[string][]string {
	sections := make([]string, len(harness.Sections))
	for i, s := range harness.Sections {
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

// FreeFlags take a value that is not from a list: the shell completes a
// file name (--file, --db) or nothing.
var FreeFlags = map[string]cobra.ShellCompDirective{
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

// RegisterCompletions walks the command tree once it is built: every flag
// with enumerated values completes them, and `explain` completes the names
// of the drills and exercises.
func RegisterCompletions(root *cobra.Command) {
	values := FlagValues()
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for name, vals := range values {
			if cmd.LocalFlags().Lookup(name) == nil {
				continue
			}
			_ = cmd.RegisterFlagCompletionFunc(name, fixedValues(vals))
		}
		for name, dir := range FreeFlags {
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
