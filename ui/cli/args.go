package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/numflag"
	"archlab/ui/status"
)

// The command line, read before cobra parses it, and what a class types
// wrong in it.

// imeDashes are what a Chinese input method types for "--" and "-": an em
// dash, two of them, a full-width hyphen, an en dash.
var imeDashes = []struct{ typed, meant string }{
	{"——", "--"}, {"－－", "--"}, {"—", "--"}, {"–", "--"}, {"－", "-"},
}

// TypedArgs reads a flag typed with a Chinese input method's dashes (or a
// full-width =) as the flag it means, and says so on stderr: "—trace" is
// --trace. Arguments after "--" are left alone.
func TypedArgs(stderr io.Writer, args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if a == "--" {
			copy(out[i:], args[i:])
			break
		}
		for _, d := range imeDashes {
			if rest, ok := strings.CutPrefix(a, d.typed); ok && rest != "" && !strings.HasPrefix(rest, "-") {
				fixed := d.meant + strings.ReplaceAll(rest, "＝", "=")
				lang := i18n.EN
				if l, ok := langIn(args); ok {
					lang = l
				}
				fmt.Fprintln(stderr, i18n.T(lang, "note.ime-dash", a, fixed))
				out[i] = fixed
				break
			}
		}
	}
	return out
}

// langIn is the --lang of args, if one is given and valid.
func langIn(args []string) (i18n.Lang, bool) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--lang="); ok {
			return i18n.Parse(v)
		}
		if a == "--lang" && i+1 < len(args) {
			return i18n.Parse(args[i+1])
		}
	}
	return "", false
}

// PickLang reads --lang from the arguments before cobra parses them, because
// help text and flag descriptions must already be in that language when the
// command tree is built. Without --lang the environment decides. As with
// every other flag the last --lang wins, and each one must be zh or en: a
// bad value is refused even when another --lang is good.
func PickLang(args []string, getenv func(string) string) (i18n.Lang, error) {
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
			return "", &status.Usage{Msg: i18n.T(lang, "err.lang", value)}
		}
		lang = l
	}
	return lang, nil
}

// WantsJSON reports whether the command line asks for --json (before a
// "--"), whether or not the flag parsed: `--json=maybe` is asking too.
func WantsJSON(args []string) bool {
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

// NamesAfterDashes lets a command's name follow "--": `drill -- ack-lost`
// and `explore -- inbox` mean `drill ack-lost` and `explore inbox`. cobra
// looks for subcommands only before "--", so the word after it is moved in
// front of it when it names a subcommand of the command before it.
func NamesAfterDashes(root *cobra.Command, args []string) []string {
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

// FlagError says in the reader's language what pflag found wrong with a
// flag; an error pflag does not type is passed on as it is.
func FlagError(g *Env, err error) string {
	var unknown *pflag.NotExistError
	var missing *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &unknown):
		name := "--" + unknown.GetSpecifiedName()
		if unknown.GetSpecifiedShortnames() != "" { // -z, or -z inside -xz
			name = "-" + unknown.GetSpecifiedName()
		}
		return g.T("err.flag.unknown", name)
	case errors.As(err, &missing):
		return g.T("err.flag.needs-value", "--"+missing.GetFlag().Name)
	case errors.As(err, &invalid):
		name := "--" + invalid.GetFlag().Name
		var de *numflag.Error
		if errors.As(err, &de) {
			return numflag.Message(g.Lang, name, de)
		}
		var pe *dbPathError
		if errors.As(err, &pe) {
			if pe.key == "err.db.dash" { // with the name to write instead
				return g.T(pe.key, pe.value, "./"+pe.value)
			}
			return g.T(pe.key, pe.value)
		}
		key := "err.flag.invalid"
		switch invalid.GetFlag().Value.Type() {
		case "int":
			key = "err.flag.not-a-number"
		case "bool":
			key = "err.flag.bool"
		}
		return g.T(key, name, invalid.GetValue())
	}
	return err.Error()
}

// FlagSuggestion is the nearest real flag of cmd to an unknown one:
// --comit-every → --commit-every. "" when none is near.
func FlagSuggestion(cmd *cobra.Command, err error) string {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedShortnames() != "" {
		return ""
	}
	var names []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if near := drills.Nearest(unknown.GetSpecifiedName(), names, 1); len(near) > 0 {
		return "--" + near[0]
	}
	return ""
}

// UnknownCommand names the bad word and the nearest real commands.
func UnknownCommand(g *Env, cmd *cobra.Command, name string) error {
	e := &status.Usage{Msg: g.T("err.unknown-command", name, cmd.CommandPath())}
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
		e.Hint = g.T("err.hint.did-you-mean", strings.Join(near, ", "))
	case cmd == cmd.Root() && isDrill(name):
		// `archlab ack-lost`: a drill's name where a command goes.
		e.Hint = g.T("err.hint.did-you-mean", "archlab drill "+strings.ToLower(name))
	default:
		e.Hint = g.T("err.hint.help", cmd.CommandPath())
	}
	return e
}

// isDrill reports whether name is a drill's name.
func isDrill(name string) bool {
	_, err := drills.Lookup(name)
	return err == nil
}

// NoArgs is cobra.NoArgs in the reader's language, with a hint.
func NoArgs(g *Env) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return &status.Usage{Msg: g.T("err.args.none", cmd.CommandPath(), strings.Join(args, " ")), Hint: g.T("err.hint.help", cmd.CommandPath())}
	}
}

// Version is the module Version from the build info, "(devel)" in a
// checkout, with the VCS revision when the build recorded one.
func Version() string {
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
