// Package readat holds what every io.ReaderAt over a remote object of a
// size known at open does alike (httpfile, cloud and the store gateway's
// client): a read is cut at the object's end, one inside the tail kept by
// the open is a copy, and a read that fills less than it was asked
// returns io.EOF, as io.ReaderAt requires. How each reads the rest, and
// how it words a negative offset, stay its own.
package readat

import "io"

// Clip returns the part of p that a read at off of an object of size bytes
// can fill: p cut at the object's end, or io.EOF when off is at or past
// it. off must not be negative (each reader refuses that in its own
// words).
func Clip(p []byte, off, size int64) ([]byte, error) {
	if off >= size {
		return nil, io.EOF
	}
	if rest := size - off; int64(len(p)) > rest {
		p = p[:rest]
	}
	return p, nil
}

// FromTail copies want, the clipped read at off, from tail, the object's
// bytes from tailOff on, when the read lies wholly inside it. It reports
// whether it did; a nil tail holds nothing.
func FromTail(want []byte, off, tailOff int64, tail []byte) (int, bool) {
	if tail == nil || off < tailOff || off+int64(len(want)) > tailOff+int64(len(tail)) {
		return 0, false
	}
	return copy(want, tail[off-tailOff:]), true
}

// Done returns what ReadAt returns after n bytes of p were read without an
// error: n, with io.EOF when n is short of len(p).
func Done(n int, p []byte) (int, error) {
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
