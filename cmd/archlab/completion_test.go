package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"archlab/check"
	"archlab/drills"
	"archlab/i18n"
	"archlab/ui/cli"
)

// completions asks archlab what the shell should offer after args, as the
// scripts of `archlab completion` do.
func completions(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := runCLI(t, nil, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d: %s", args, code, errOut)
	}
	var vals []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.HasPrefix(l, ":") {
			vals = append(vals, strings.SplitN(l, "\t", 2)[0])
		}
	}
	return vals
}

// TestCompletionOffersEveryValue walks every command: each string flag
// either completes the values it takes or is one of the flags whose value
// is free (a path, an address); and what it completes is exactly its list.
func TestCompletionOffersEveryValue(t *testing.T) {
	values := cli.FlagValues()
	var walk func(c *cobra.Command)
	var buf bytes.Buffer
	root := newRootCmd(&cli.Env{IO: &IO{Out: &buf, Err: &buf, Getenv: func(string) string { return "" }}, Lang: i18n.EN})
	walk = func(c *cobra.Command) {
		if strings.HasPrefix(c.Name(), "__") {
			return
		}
		path := strings.Fields(c.CommandPath())[1:]
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "string" {
				return
			}
			want, enumerated := values[f.Name]
			if _, free := cli.FreeFlags[f.Name]; !enumerated && !free {
				t.Errorf("%s --%s takes a string but neither completes a list nor is marked free", c.CommandPath(), f.Name)
				return
			}
			if !enumerated {
				return
			}
			got := completions(t, append(slices.Clone(path), "--"+f.Name, "")...)
			if !slices.Equal(got, want) {
				t.Errorf("%s --%s completes %v, want %v", c.CommandPath(), f.Name, got, want)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestCompletionNames: drill names after drill and explain, exercise
// names after check and explain, a prefix narrowing them.
func TestCompletionNames(t *testing.T) {
	var names []string
	for _, d := range drills.All() {
		names = append(names, d.Name)
	}
	for _, args := range [][]string{{"drill", ""}, {"explain", ""}} {
		got := completions(t, args...)
		for _, n := range names {
			if !slices.Contains(got, n) {
				t.Errorf("archlab %s<Tab> does not offer %s: %v", strings.Join(args, " "), n, got)
			}
		}
	}
	for _, e := range check.Names() {
		if !slices.Contains(completions(t, "explain", ""), e) || !slices.Contains(completions(t, "check", ""), e) {
			t.Errorf("exercise %s not completed after explain and check", e)
		}
	}
	if got := completions(t, "explain", "cr"); !slices.Equal(got, []string{"crash-resume"}) {
		t.Errorf("explain cr<Tab> = %v", got)
	}
	if got := completions(t, "--lang", "z"); !slices.Equal(got, []string{"zh"}) {
		t.Errorf("--lang z<Tab> = %v", got)
	}
}

// TestMisspeltCommands: a command typed with a letter missing, swapped or
// wrong is suggested by edit distance, not only by prefix.
func TestMisspeltCommands(t *testing.T) {
	for typo, want := range map[string]string{"chek": "check", "lst": "list", "drll": "drill", "explane": "explain", "EXPLOR": "explore", "ack-lost": "archlab drill ack-lost"} {
		_, errOut, code := runCLI(t, nil, typo)
		if code != exitUsage || !strings.Contains(errOut, "did you mean: "+want) {
			t.Errorf("archlab %s: exit %d, %q; want a suggestion of %s", typo, code, errOut, want)
		}
	}
	_, errOut, _ := runCLI(t, nil, "completion", "bsh")
	if !strings.Contains(errOut, "did you mean: bash") {
		t.Errorf("completion bsh: %q", errOut)
	}
}
