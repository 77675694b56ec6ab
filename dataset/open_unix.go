//go:build unix

package dataset

import "syscall"

// openFlags are added to a data file's open: O_NONBLOCK, so that a listed
// file replaced by a named pipe fails its regular-file check at once
// instead of blocking the open until a writer comes. It changes nothing
// for a regular file's reads.
const openFlags = syscall.O_NONBLOCK
