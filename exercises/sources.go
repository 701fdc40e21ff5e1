package exercises

import (
	"embed"
	"io/fs"
)

// sources is this folder as it was when the binary was built: its Go
// files and its subfolders' (a helper package of the student's), every
// file but those whose names start with . or _. `archlab check` compares
// their Go files with the files on disk, so that an archlab built before
// an exercise changed (go install, then an edit) says so instead of
// checking the old code in silence. Embedding them needs no build step by
// hand: go run, go build and go install all rebuild when a file here
// changes. "*" and not "*.go": a pattern with a subfolder in it fails to
// compile where there is none, and "*" takes the subfolders whole.
//
//go:embed *
var sources embed.FS

// Sources is the exercises' Go files as this binary was built with them.
func Sources() fs.FS { return sources }
