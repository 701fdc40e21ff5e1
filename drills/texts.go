package drills

import (
	"fmt"
	"strings"

	"archlab/i18n"
)

// A drill's words (its title, each parameter's help and bound, each check
// and its explanation) are the drill file's -- en -- and -- zh -- parts.
// They belong to the parsed Drill, not to the shared catalogue: parsing a
// file changes nothing global, so a file pasted into archlab serve leaves
// nothing behind, and an edited copy of a built-in drill cannot put its
// words on the built-in's page.
//
// Renderers ask the drill with the catalogue's key forms (d.TitleKey(),
// "check.<drill>.<name>" as recorded, "explain.<drill>"); a key the drill
// does not own is the catalogue's.

// Text is key in lang with args: the drill's own text when key is one of
// its keys, else the catalogue's (i18n.T). The drill's text in lang comes
// first, then its English one, then a plain default: the drill's name for
// its title, a check's or parameter's name for its text.
func (d *Drill) Text(lang i18n.Lang, key string, args ...any) string {
	own, def, ok := d.ownKey(key)
	if !ok {
		return i18n.T(lang, key, args...)
	}
	text, found := d.fileText(lang, own)
	switch {
	case !found && def == "":
		return i18n.T(lang, key, args...)
	case !found:
		return def
	case len(args) > 0:
		return fmt.Sprintf(text, args...)
	}
	return text
}

// Title is the drill's one-line title in lang.
func (d *Drill) Title(lang i18n.Lang) string { return d.Text(lang, d.TitleKey()) }

// Explain is the drill's explanation in lang.
func (d *Drill) Explain(lang i18n.Lang) string { return d.Text(lang, d.ExplainKey()) }

// ExplainKey is the key of the drill's explanation.
func (d *Drill) ExplainKey() string { return "explain." + d.Name }

// ParamUsage is a parameter's help text in lang.
func (d *Drill) ParamUsage(lang i18n.Lang, p Param) string { return d.Text(lang, p.UsageKey(d.Name)) }

// ownKey maps a catalogue key of this drill to the file's text key and its
// default; ok is false for a key that is not the drill's.
func (d *Drill) ownKey(key string) (own, def string, ok bool) {
	if d.file == nil {
		return "", "", false
	}
	if key == d.TitleKey() {
		return "title", d.Name, true
	}
	if key == d.ExplainKey() {
		return "explain", "", true
	}
	for _, kind := range []string{"param", "why", "check"} {
		if arg, found := strings.CutPrefix(key, kind+"."+d.Name+"."); found {
			if kind == "why" {
				return kind + " " + arg, "", true
			}
			return kind + " " + arg, arg, true
		}
	}
	return "", "", false
}

// fileText is the file's text of key in lang, else in English.
func (d *Drill) fileText(lang i18n.Lang, key string) (string, bool) {
	if s, ok := d.file.texts[lang][key]; ok {
		return s, true
	}
	s, ok := d.file.texts[i18n.EN][key]
	return s, ok
}
