package term

import "github.com/fatih/color"

// Palette colours results when colour is on and leaves them plain otherwise.
type Palette struct {
	Good, Bad, Dim, Bold *color.Color
}

// NewPalette enables colour only on a terminal, without NO_COLOR, without
// --no-color. fatih/color's global switch is left alone: the decision is
// made per run, from the injected IO.
func NewPalette(on bool) Palette {
	p := Palette{
		Good: color.New(color.FgGreen),
		Bad:  color.New(color.FgRed),
		Dim:  color.New(color.Faint),
		Bold: color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.Good, p.Bad, p.Dim, p.Bold} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}
