//go:build linux

package dataset

import "syscall"

// ctime returns the time of a file's last status change, as stat gives it.
func ctime(st *syscall.Stat_t) (sec, nsec int64) { return int64(st.Ctim.Sec), int64(st.Ctim.Nsec) }
