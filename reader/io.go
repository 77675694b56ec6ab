package reader

import (
	"errors"
	"fmt"
	"io"

	"github.com/orcgo/orc"
)

// readFull fills buf from offset off; a short file is corruption.
func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if _, ok := r.(*ioSched); ok {
		return err // said already by the scheduler's own readFull
	}
	if err == nil || errors.Is(err, io.EOF) {
		return &orc.CorruptError{Offset: off + int64(n), Stripe: -1, Column: -1,
			Msg: fmt.Sprintf("file ends after %d of %d bytes read at %d", n, len(buf), off)}
	}
	return fmt.Errorf("orc: reading %d bytes at offset %d: %w", len(buf), off, err)
}

func errStripeRange(i, n int) error {
	return fmt.Errorf("orc: stripe %d out of range (file has %d)", i, n)
}

func errPosition(what string, v uint64) error {
	return orc.Corruptf("row index %s %d out of range", what, v)
}
