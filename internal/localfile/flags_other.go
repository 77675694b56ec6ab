//go:build !unix

package localfile

// Flags are added to the open of a file that must be regular (see
// flags_unix.go); other systems need none.
const Flags = 0
