//go:build !unix

package main

// openFlags are added where a file that must be regular is opened (see
// open_unix.go); other systems need none.
const openFlags = 0
