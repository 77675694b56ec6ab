//go:build unix

package main

import "syscall"

// openFlags are added where a file that must be regular is opened:
// O_NONBLOCK, so that a named pipe at its path fails the regular-file check
// at once instead of blocking the open until a writer comes. Reads of a
// regular file are unchanged.
const openFlags = syscall.O_NONBLOCK
