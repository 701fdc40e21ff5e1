package exercises

import (
	"embed"
	"io/fs"
)

// sources is this package's Go files as they were when the binary was
// built. `archlab check` compares them with the files on disk, so that an
// archlab built before an exercise changed (go install, then an edit) says
// so instead of checking the old code in silence. Embedding them needs no
// build step by hand: go run, go build and go install all rebuild when a
// file here changes.
//
//go:embed *.go
var sources embed.FS

// Sources is the exercises' Go files as this binary was built with them.
func Sources() fs.FS { return sources }
