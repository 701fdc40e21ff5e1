package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/drills"
	"archlab/i18n"
)

// Mistakes a class makes, and the help archlab gives for them.

// imeDashes are what a Chinese input method types for "--" and "-": an em
// dash, two of them, a full-width hyphen, an en dash.
var imeDashes = []struct{ typed, meant string }{
	{"——", "--"}, {"－－", "--"}, {"—", "--"}, {"–", "--"}, {"－", "-"},
}

// typedArgs reads a flag typed with a Chinese input method's dashes (or a
// full-width =) as the flag it means, and says so on stderr: "—trace" is
// --trace. Arguments after "--" are left alone.
func typedArgs(stderr io.Writer, args []string) []string {
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

// flagSuggestion is the nearest real flag of cmd to an unknown one:
// --comit-every → --commit-every. "" when none is near.
func flagSuggestion(cmd *cobra.Command, err error) string {
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
