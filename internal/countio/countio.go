// Package countio counts the bytes that pass through a writer or a reader:
// the size of a file while it is written, or how much of an input has been
// read, for callers that go through layers which do not report it.
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

// Reader passes reads on to R and counts in N the bytes it returned.
type Reader struct {
	R io.Reader
	N int64 // bytes read so far
}

// Read reads from R into p and adds the bytes read to N.
func (c *Reader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
