//go:build !unix

package dataset

// openFlags are added to a data file's open (see open_unix.go); other
// systems need none.
const openFlags = 0
