//go:build darwin || freebsd || netbsd

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
	return strconv.FormatUint(uint64(st.Ino), 10) + "." + strconv.FormatInt(int64(st.Ctimespec.Sec)*1e9+int64(st.Ctimespec.Nsec), 10)
}
