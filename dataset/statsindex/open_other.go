//go:build !unix

package statsindex

// openFlags are added to the open of a local index (see open_unix.go);
// other systems need none.
const openFlags = 0
