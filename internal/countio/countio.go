// Package countio counts the bytes that pass through a writer: the size of
// a file while it is written, for callers that write through layers which
// do not report it.
package countio

import "io"

// Writer passes writes on to W and counts in N the bytes W accepted.
type Writer struct {
	W io.Writer
	N int64 // bytes W has accepted so far
}

// Write writes p to W and adds the bytes W accepted to N.
func (c *Writer) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
