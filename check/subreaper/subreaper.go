package subreaper

import "syscall"

// ChildEnv, set to "1", tells a program started as a check's child that
// it is one (a test binary acts as archlab then).
const ChildEnv = "ARCHLAB_CHECK_CHILD"

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER (linux/prctl.h); syscall
// does not name it, and golang.org/x/sys/unix would bring packages in
// that a student's code need not import.
const prSetChildSubreaper = 36

func init() {
	if v, _ := syscall.Getenv(ChildEnv); v == "1" {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	}
}
