//go:build unix

package statsindex

import "syscall"

// openFlags are added to the open of a local index: O_NONBLOCK, so that a
// named pipe at the index's path fails the regular-file check at once
// instead of blocking the open until a writer comes.
const openFlags = syscall.O_NONBLOCK
