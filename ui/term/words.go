package term

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"archlab/i18n"
)

// OSReason is why the system refused a file, in the reader's language
// for the common reasons, else as the system said it.
func OSReason(lang i18n.Lang, err error) string {
	var de *DirError
	switch {
	case errors.As(err, &de) && de.Kind == "dangling":
		return i18n.T(lang, "err.os.dangling", de.Path, de.Target)
	case errors.As(err, &de):
		return i18n.T(lang, "err.os.not-folder", de.Path)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return i18n.T(lang, "err.os.too-long")
	case errors.Is(err, fs.ErrNotExist):
		return i18n.T(lang, "err.os.not-exist")
	case errors.Is(err, fs.ErrPermission):
		return i18n.T(lang, "err.os.permission")
	case errors.Is(err, syscall.EISDIR):
		return i18n.T(lang, "err.os.is-dir")
	case errors.Is(err, syscall.ENOTDIR):
		return i18n.T(lang, "err.os.not-dir")
	}
	return UnwrapPathErr(err).Error()
}

// Duration says how long something took, to three significant digits,
// in the reader's units: 7.84s, 用时 7.84 秒.
func Duration(lang i18n.Lang, d time.Duration) string {
	key, v := "time.seconds", d.Seconds()
	switch {
	case d < time.Millisecond:
		key, v = "time.microseconds", float64(d)/float64(time.Microsecond)
	case d < time.Second:
		key, v = "time.milliseconds", float64(d)/float64(time.Millisecond)
	}
	digits := 2
	switch {
	case v >= 100:
		digits = 0
	case v >= 10:
		digits = 1
	}
	return i18n.T(lang, key, strconv.FormatFloat(v, 'f', digits, 64))
}

// UnwrapPathErr is the system's reason for a path error, without the path.
func UnwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ShellWord is a in a form a POSIX shell reads back as one word.
func ShellWord(a string) string {
	if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%") == "" {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
