//go:build unix

package localfile

import "syscall"

// Flags are added to the open of a file that must be regular: O_NONBLOCK,
// so that a named pipe at its path fails the regular-file check at once
// instead of blocking the open until a writer comes. It changes nothing
// for a regular file's reads.
const Flags = syscall.O_NONBLOCK
