package reader

import (
	"context"
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

// ContextReaderAt is a file that can read under a context, as
// httpfile.File does: a scan of one reads with ReadAtContext under the
// scan's context (WithContext), and every read still in flight when the
// scan is closed ends at once instead of running to its end.
type ContextReaderAt interface {
	io.ReaderAt
	ReadAtContext(ctx context.Context, p []byte, off int64) (int, error)
}

// ctxReaderAt reads a ContextReaderAt under ctx.
type ctxReaderAt struct {
	ctx context.Context
	r   ContextReaderAt
}

func (c ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	return c.r.ReadAtContext(c.ctx, p, off)
}

// underContext returns r reading under ctx, and the function that ends
// its reads in flight; r itself when it cannot read under a context.
func underContext(r io.ReaderAt, ctx context.Context) (io.ReaderAt, context.CancelFunc) {
	cr, ok := r.(ContextReaderAt)
	if !ok {
		return r, func() {}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctxReaderAt{ctx, cr}, cancel
}

func errStripeRange(i, n int) error {
	return fmt.Errorf("orc: stripe %d out of range (file has %d)", i, n)
}

func errPosition(what string, v uint64) error {
	return orc.Corruptf("row index %s %d out of range", what, v)
}
