package statsindex

import (
	"io"
	"sync"
)

// The index's reads, in few requests.
//
// Reading the index takes two scans (membership, then the lookup), each
// reading the streams of a few columns, which orcgo's reader fetches with a
// request per run of streams and scan. Over an object store each request
// waits for its first byte, so the index is read through blockCache: a read
// fetches the aligned blocks of indexBlock bytes that cover it, all the
// missing ones in one request, and keeps them for the later reads of the
// lookup. An index up to a block (about 40,000 files without bloom
// filters) then costs its tail (one request, which an httpfile.File holds
// from its Open) and one request for the rest, however many columns and
// scans read it; a larger one costs a request per run of blocks the scans
// touch. Reads inside the last tailWindow bytes go to the underlying
// reader directly, so that an httpfile.File answers them from the tail it
// prefetched. The bloom filter columns are the last of the layout, so
// their bytes, the bulk of an index that has them, lie in blocks that only
// a lookup probing them fetches.

// indexBlock is the cache's block size (a variable for tests).
var indexBlock int64 = 1 << 20

// tailWindow is the part of the index at its end read directly (an
// httpfile.File's tail prefetch, httpfile.DefaultTailPrefetch; a variable
// for tests).
var tailWindow int64 = 64 << 10

// blockCache is an io.ReaderAt over the index that fetches and keeps
// aligned blocks. Safe for concurrent use.
type blockCache struct {
	ra     io.ReaderAt
	size   int64
	mu     sync.Mutex
	blocks map[int64][]byte // block number -> its bytes (shorter at the end)
	err    error            // the first failed fetch, returned from then on
}

func newBlockCache(ra io.ReaderAt, size int64) *blockCache {
	return &blockCache{ra: ra, size: size, blocks: map[int64][]byte{}}
}

// ReadAt reads len(p) bytes at off, from the kept blocks, fetching the
// missing ones first.
func (c *blockCache) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	if off >= c.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), c.size)
	if off >= c.size-tailWindow {
		n, err := c.ra.ReadAt(p[:end-off], off)
		if err == nil && end-off < int64(len(p)) {
			err = io.EOF
		}
		return n, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.fetch(off/indexBlock, (end-1)/indexBlock); err != nil {
		return 0, err
	}
	n := 0
	for b := off / indexBlock; b <= (end-1)/indexBlock; b++ {
		blk := c.blocks[b]
		from := max(off, b*indexBlock) - b*indexBlock
		to := min(end, b*indexBlock+int64(len(blk))) - b*indexBlock
		n += copy(p[n:], blk[from:to])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// fetch reads the missing blocks among first..last, each run of missing
// blocks in one read.
func (c *blockCache) fetch(first, last int64) error {
	if c.err != nil {
		return c.err
	}
	for b := first; b <= last; {
		if c.blocks[b] != nil {
			b++
			continue
		}
		run := b
		for run+1 <= last && c.blocks[run+1] == nil {
			run++
		}
		start, stop := b*indexBlock, min((run+1)*indexBlock, c.size)
		buf := make([]byte, stop-start)
		if n, err := c.ra.ReadAt(buf, start); n < len(buf) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			c.err = err
			return err
		}
		for k := b; k <= run; k++ {
			c.blocks[k] = buf[(k-b)*indexBlock : min((k-b+1)*indexBlock, int64(len(buf)))]
		}
		b = run + 1
	}
	return nil
}
