package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/ui/term"
)

// Help is written here, not by cobra's template: cobra pads a flag's name
// and writes its description on one line however long, and a projector at
// 80 columns (or a split tmux at 60) wraps such a line mid-word. Every part
// of a help screen is wrapped to the reader's width, in their language:
// prose is reflowed, example commands continue with " \", and a flag's
// description wraps under itself.

// InstallHelp makes cmd and every command below it write help and usage
// this way.
func InstallHelp(g *Env, root *cobra.Command) {
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		writeHelp(g, cmd, cmd.OutOrStdout())
	})
	root.SetUsageFunc(func(cmd *cobra.Command) error {
		writeUsage(g, cmd, cmd.OutOrStderr())
		return nil
	})
}

// writeHelp is cobra's help: the long description (or the short one), then
// the usage.
func writeHelp(g *Env, cmd *cobra.Command, w io.Writer) {
	about := strings.TrimSpace(cmd.Long)
	if about == "" {
		about = cmd.Short
	}
	if about != "" {
		fmt.Fprintln(w, term.Reflow(about, g.Width()))
		fmt.Fprintln(w)
	}
	writeUsage(g, cmd, w)
}

// writeUsage is cobra's usage, section by section, wrapped to the width.
func writeUsage(g *Env, cmd *cobra.Command, w io.Writer) {
	width := g.Width()
	fmt.Fprintln(w, g.T("help.head.usage"))
	if cmd.Runnable() {
		use := cmd.UseLine()
		if cmd.HasAvailableFlags() && !strings.Contains(use, "[flags]") {
			use += " [flags]"
		}
		term.WriteCommand(w, "  ", "    ", strings.ReplaceAll(use, "[flags]", g.T("help.flags-word")), width)
	}
	if cmd.HasAvailableSubCommands() {
		term.WriteCommand(w, "  ", "    ", cmd.CommandPath()+" "+g.T("help.command-word"), width)
	}
	if len(cmd.Aliases) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, g.T("help.head.aliases"))
		term.WriteHanging(w, "  ", "    ", cmd.NameAndAliases(), width)
	}
	if cmd.HasExample() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, g.T("help.head.examples"))
		writeExamples(w, cmd.Example, width)
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, g.T("help.head.commands"))
		var subs []*cobra.Command
		pad := 0
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() || c.Name() == "help" {
				subs = append(subs, c)
				pad = max(pad, len(c.Name()))
			}
		}
		for _, c := range subs {
			first := "  " + c.Name() + strings.Repeat(" ", pad-len(c.Name())+2)
			if len(first)+16 > width { // a narrow screen: the line under the name
				fmt.Fprintln(w, "  "+c.Name())
				term.WriteHanging(w, "      ", "      ", c.Short, width)
				continue
			}
			term.WriteHanging(w, first, strings.Repeat(" ", len(first)), c.Short, width)
		}
	}
	if cmd.HasAvailableLocalFlags() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, g.T("help.head.flags"))
		writeFlags(g, w, cmd.LocalFlags(), width)
	}
	if cmd.HasAvailableInheritedFlags() {
		fmt.Fprintln(w)
		fmt.Fprintln(w, g.T("help.head.global-flags"))
		writeFlags(g, w, cmd.InheritedFlags(), width)
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintln(w)
		for _, l := range term.WrapText(g.T("help.more", cmd.CommandPath()), width) {
			fmt.Fprintln(w, l)
		}
	}
}

// writeExamples writes an Example block: "# comment" lines wrap as
// comments, "$ command" lines as commands a shell reads back whole.
func writeExamples(w io.Writer, examples string, width int) {
	for _, l := range strings.Split(strings.TrimRight(examples, "\n"), "\n") {
		text := strings.TrimLeft(l, " ")
		indent := l[:len(l)-len(text)]
		switch {
		case strings.HasPrefix(text, "$ "):
			term.WriteCommand(w, indent+"$ ", indent+"    ", strings.TrimPrefix(text, "$ "), width)
		case strings.HasPrefix(text, "# "):
			term.WriteHanging(w, indent+"# ", indent+"# ", strings.TrimPrefix(text, "# "), width)
		default:
			term.WriteHanging(w, indent, indent+"  ", text, width)
		}
	}
}

// writeFlags lists flags as pflag does ("  -x, --name type   what it
// does"), the descriptions in one column wrapped under themselves; when
// the names leave the descriptions too little room, each description goes
// under its flag instead.
func writeFlags(g *Env, w io.Writer, fs *pflag.FlagSet, width int) {
	type row struct{ name, usage string }
	var rows []row
	nameW := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "      --" + f.Name
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			name = "  -" + f.Shorthand + ", --" + f.Name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if varname == "string" || varname == "int" || varname == "uint" || varname == "duration" {
			varname = g.T("help.type." + varname) // a type, said in the reader's words
		}
		if varname != "" {
			name += " " + varname
		}
		if d := flagDefault(f); d != "" {
			usage += g.T("help.flag.default", d)
		}
		rows = append(rows, row{name, usage})
		nameW = max(nameW, term.DisplayWidth(name))
	})
	col := nameW + 3
	below := width-col < 30
	for _, r := range rows {
		if below {
			fmt.Fprintln(w, r.name)
			term.WriteHanging(w, "        ", "        ", r.usage, width)
			continue
		}
		first := r.name + strings.Repeat(" ", col-term.DisplayWidth(r.name))
		term.WriteHanging(w, first, strings.Repeat(" ", col), r.usage, width)
	}
}

// flagDefault is the default pflag would print after a flag's help: none
// for a zero value, quoted for a string.
func flagDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]", "<nil>":
		return ""
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}
