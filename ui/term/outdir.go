package term

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// Made is what a command made for its output (--output-dir, --save):
// the folders it created and the files it wrote that were not there
// before. A run that fails part way takes them back (Undo), so a failure
// leaves nothing behind (issue 43: a path too long failed with exit 3 and
// left the 20 folders made before it).
type Made struct {
	dirs, files []string
}

// DirError is a folder a command cannot write in, said truly: a link to
// nothing ("dangling"), or something that is not a folder ("not-dir").
// mkdir says "file exists" of both.
type DirError struct {
	Path, Kind, Target string
}

func (e *DirError) Error() string { return e.Path + ": " + e.Kind }

// Dir makes dir and its missing parents, each remembered. A part of the
// path that is a link to nothing or a file is a *DirError; nothing is made
// unless the whole path can be looked at (a path too long is refused
// before any folder is made).
func (m *Made) Dir(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		info, err := os.Lstat(d)
		// Not there, or under something that is not a folder: look
		// higher, to say which part is wrong.
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			missing = append(missing, d)
			if filepath.Dir(d) == d {
				break
			}
			continue
		}
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(d)
			if info, err = os.Stat(d); err != nil {
				return &DirError{Path: d, Kind: "dangling", Target: target}
			}
		}
		if !info.IsDir() {
			return &DirError{Path: d, Kind: "not-dir"}
		}
		break
	}
	for _, d := range slices.Backward(missing) {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
		m.dirs = append(m.dirs, d)
	}
	return nil
}

// Fresh says whether path is not there yet; a file written there is then
// noted (File) to be taken back.
func Fresh(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// File notes a file written that was not there before.
func (m *Made) File(path string) { m.files = append(m.files, path) }

// Undo removes the files noted and the folders made, the last first.
func (m *Made) Undo() {
	for _, f := range slices.Backward(m.files) {
		os.Remove(f)
	}
	for _, d := range slices.Backward(m.dirs) {
		os.Remove(d)
	}
	m.dirs, m.files = nil, nil
}
