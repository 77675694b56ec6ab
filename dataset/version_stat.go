//go:build linux || darwin || freebsd || netbsd

package dataset

import (
	"io/fs"
	"strconv"
	"syscall"
)

// statVersion is the part of a local file's Version that a rewrite in
// place cannot keep: "inode.ctime_ns" (see modVersion); "" when fi does not
// come from stat.
func statVersion(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	sec, nsec := ctime(st)
	return strconv.FormatUint(uint64(st.Ino), 10) + "." + strconv.FormatInt(sec*1e9+nsec, 10)
}
