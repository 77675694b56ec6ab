package format

// Writing one stream of a stripe.
//
// # Format
//
// The output is what InStream reads (see compression.go): raw bytes for
// codec NONE, otherwise chunks of at most blockSize uncompressed bytes, each
// stored as [3-byte header][payload], where the payload is the compressed
// chunk, or the chunk itself with the header's isOriginal bit set when
// compression does not make it smaller. A chunk holds blockSize
// uncompressed bytes unless Flush ended it early: at the stream's end, and,
// when the writer aligns row groups, at every row-group boundary (a short
// chunk in mid-stream is legal ORC; each chunk decompresses on its own).
//
// Positions (AppendPosition) name the point where the next byte will go:
// uncompressed [bytes written]; compressed [bytes of chunks emitted so far,
// headers included; bytes buffered for the next chunk]. A stream whose
// chunks a Pipeline compresses (pipeline.go) gives a placeholder for the
// first value until the stripe's chunks are stored.
//
// The stored bytes are kept in pages of a quarter of what the stream holds
// (4 KiB to 1 MiB), so a stream of tens of megabytes is never copied to
// grow, and the room left unused in its last page is under a quarter of it.
// A chunk is compressed straight into the last page when the page has room
// for the compressor's worst case; otherwise into the compressor's own
// buffer (shared by every stream it serves), and then copied. Streams given
// a PagePool take their pages and chunk buffer from it and give them back
// on Release, so a writer reuses one stripe's memory for the next.

import (
	"fmt"
	"io"
	"sync"

	"github.com/orcgo/orc"
)

// OutStream buffers one stream of a stripe in memory until the stripe is
// written. It implements Sink. An OutStream is not safe for concurrent use.
// After an error (a failing compressor), every call returns that error until
// Reset.
//
// A stream takes 96 bytes until bytes are stored in it and once it is
// dropped (Drop): its pages and what Settle counts (pageStore), Settle's marks
// (once it is settled holding bytes), a Pipeline's state, a bad
// configuration's error and a buffer for a Compressor without its own are
// allocated when first needed. A writer of a wide schema has a stream or
// more a column, most of them holding a few bytes a stripe, which each
// column's come to only at the stripe's end, and leave once written; at
// 416 bytes each, they were a good part of its memory.
type OutStream struct {
	buf  []byte // uncompressed bytes of the next chunk; cap up to blockSize (growBuf)
	c    Compressor
	pool *PagePool
	err  error       // sticky error
	st   *pageStore  // nil until bytes are stored (or, with a pipeline, emitted)
	pp   *pipedState // deferred compression (pipeline.go), or nil
	more *outMore    // nil unless needed

	blockSize int32
	comp      orc.CompressionKind
}

// pageStore is what a stream keeps once bytes are stored in it: its pages
// and what Settle counts. Release lets go of it.
type pageStore struct {
	pages [][]byte // emitted chunks, or the raw stream for codec NONE, in pages[:used]
	full  [][]byte // with a pool: each page with all the capacity of its array, for Release
	n     int64    // bytes in pages
	held  int64    // capacity of all pages
	used  int      // pages in use: all full but the last; the rest are kept from before Reset
	// sinceMark is the bytes of the chunks emitted since the last Settle,
	// uncompressed, headers included.
	sinceMark int64
	marks     *settleMarks // the last settleLag Settles; nil while every mark was zero
}

// stored returns the stream's pageStore, making it at the first call.
func (s *OutStream) stored() *pageStore {
	if s.st == nil {
		s.st = new(pageStore)
	}
	return s.st
}

// storedBytes returns the bytes in the stream's pages.
func (s *OutStream) storedBytes() int64 {
	if s.st == nil {
		return 0
	}
	return s.st.n
}

// outMore is what few streams need.
type outMore struct {
	setupErr error  // a bad configuration, kept across Reset
	cbuf     []byte // compressor output, reused, for a Compressor without its own buffer
}

// pipedState is what a stream whose chunks a Pipeline compresses keeps.
type pipedState struct {
	pipe    *Pipeline
	tag     uint32      // the stream's index in pipe
	jobs    []*chunkJob // emitted chunks not stored yet, in order
	pending int64       // bytes of jobs' chunks, uncompressed, headers included
	chunks  int         // chunks handed to pipe since Reset
	starts  []int64     // per stored chunk, the bytes stored before it
	heldAt  []int64     // per stored chunk, held after it
}

// setupErr returns the stream's configuration error, kept across Reset.
func (s *OutStream) setupErr() error {
	if s.more == nil {
		return nil
	}
	return s.more.setupErr
}

var _ Sink = (*OutStream)(nil)

// NewOutStream returns an empty stream. With codec NONE, blockSize and c are
// ignored and c may be nil. Otherwise c must compress with comp
// (NewCompressor) and blockSize must be in 1..2^23-1; a bad configuration
// makes every write fail. One Compressor may serve many OutStreams that are
// not used concurrently.
func NewOutStream(comp orc.CompressionKind, blockSize int, c Compressor) *OutStream {
	s := &OutStream{comp: comp, c: c}
	var err error
	if comp != orc.CompressionNone {
		switch {
		case c == nil:
			err = fmt.Errorf("format: no compressor for codec %v", comp)
		case blockSize <= 0 || blockSize > maxChunkLength:
			err = fmt.Errorf("format: compression block size %d not in 1..%d", blockSize, maxChunkLength)
		default:
			s.blockSize = int32(blockSize)
		}
	}
	if err != nil {
		s.more = &outMore{setupErr: err}
		s.err = err
	}
	return s
}

// NewPooledOutStream is NewOutStream with the stream's pages and chunk
// buffer taken from pool, and given back to it by Release. A nil pool is
// NewOutStream.
func NewPooledOutStream(comp orc.CompressionKind, blockSize int, c Compressor, pool *PagePool) *OutStream {
	s := NewOutStream(comp, blockSize, c)
	s.pool = pool
	return s
}

// Write appends p to the stream. It always consumes all of p unless the
// compressor fails.
func (s *OutStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.comp == orc.CompressionNone {
		s.store(p)
		return len(p), nil
	}
	total := len(p)
	block := int(s.blockSize)
	for len(p) > 0 {
		if len(s.buf) == 0 && len(p) >= block {
			// A whole chunk: compress it from p without copying.
			if err := s.emit(p[:block]); err != nil {
				return total - len(p), err
			}
			p = p[block:]
			continue
		}
		if len(s.buf) == cap(s.buf) {
			s.growBuf(len(s.buf) + len(p))
		}
		k := copy(s.buf[len(s.buf):min(cap(s.buf), block)], p)
		s.buf = s.buf[:len(s.buf)+k]
		p = p[k:]
		if len(s.buf) == block {
			if err := s.emitBuf(); err != nil {
				return total - len(p), err
			}
		}
	}
	return total, nil
}

// WriteByte appends one byte to the stream.
func (s *OutStream) WriteByte(b byte) error {
	if n := len(s.buf); n+1 < cap(s.buf) {
		// Fast path: room in the chunk buffer, which only exists for
		// compressed streams without error.
		s.buf = s.buf[:n+1]
		s.buf[n] = b
		return nil
	}
	if s.err != nil {
		return s.err
	}
	if s.comp == orc.CompressionNone {
		if st := s.st; st != nil {
			if k := st.used - 1; k >= 0 && len(st.pages[k]) < cap(st.pages[k]) {
				st.pages[k] = append(st.pages[k], b)
				st.n++
				return nil
			}
		}
		s.store([]byte{b})
		return nil
	}
	if len(s.buf) == cap(s.buf) {
		s.growBuf(len(s.buf) + 1)
	}
	s.buf = append(s.buf, b)
	if len(s.buf) == int(s.blockSize) {
		return s.emitBuf()
	}
	return nil
}

// newBuf returns an empty chunk buffer of capacity blockSize.
func (s *OutStream) newBuf() []byte { return s.sizedBuf(int(s.blockSize)) }

// firstBuf is the capacity of a stream's first chunk buffer when its pool
// has no whole one and no pipeline compresses it: a stream holding a few bytes (one of a wide schema's
// columns) took a whole block, 4 KiB and up, for them, then 256 bytes,
// which for a wide file's streams, each given its few bytes at Close and
// let go of once compressed, made 256 bytes of garbage a column.
const firstBuf = 64

// growBuf makes the chunk buffer hold at least n bytes, or a whole block:
// a block from the pool, else twice the room (from firstBuf), never more
// than a block. The bytes buffered stay.
func (s *OutStream) growBuf(n int) {
	block := int(s.blockSize)
	if cap(s.buf) >= min(n, block) {
		return
	}
	var b []byte
	if s.pool != nil {
		b = s.pool.getBuf(block)
	}
	if b == nil {
		size := max(firstBuf, 2*cap(s.buf))
		if s.pp != nil {
			// A pipeline's stream hands whole chunk buffers over
			// (emitBuf) and keeps one of a block, as before.
			size = block
		}
		for size < n {
			size *= 2
		}
		b = make([]byte, 0, min(size, block))
	}
	s.buf = append(b, s.buf...)
}

// sizedBuf returns an empty buffer of capacity size, from the pool when
// it has one.
func (s *OutStream) sizedBuf(size int) []byte {
	if s.pool != nil {
		if b := s.pool.getBuf(size); b != nil {
			return b
		}
	}
	return make([]byte, 0, size)
}

// jobBufSize is the capacity of the buffer a deferred chunk of n bytes is
// copied into: the power of two from 4 KiB up that holds it, or 0 to hand
// over the chunk buffer itself, for a chunk of more than half a block. A
// stream flushes a short chunk at every aligned row group's end, so most
// deferred chunks are short; in buffers of a block each, the chunks in
// flight would tie up several times their size.
func (s *OutStream) jobBufSize(n int) int {
	if 2*n > int(s.blockSize) {
		return 0
	}
	size := 4 << 10
	for size < n {
		size <<= 1
	}
	if size >= int(s.blockSize) {
		return 0
	}
	return size
}

// emitBuf emits the chunk buffer and empties it.
func (s *OutStream) emitBuf() error {
	if s.pp != nil {
		if size := s.jobBufSize(len(s.buf)); size > 0 {
			s.deferChunk(append(s.sizedBuf(size), s.buf...))
			s.buf = s.buf[:0]
			return nil
		}
		s.deferChunk(s.buf)
		s.buf = nil // the job's now; newBuf gives the next
		return nil
	}
	if err := s.emit(s.buf); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	return nil
}

// emit stores one chunk of uncompressed bytes, or with a pipeline hands a
// copy of it over.
func (s *OutStream) emit(chunk []byte) error {
	if s.pp != nil {
		// A whole block from Write: short chunks come from emitBuf.
		s.deferChunk(append(s.newBuf(), chunk...))
		return nil
	}
	s.stored().sinceMark += int64(chunkHeaderSize + len(chunk))
	if k, ok := s.roomInPage(len(chunk)); ok {
		return s.emitInPage(k, chunk)
	}
	var out *[]byte
	if b, ok := s.c.(buffered); ok {
		out = b.outBuf()
	} else {
		if s.more == nil {
			s.more = new(outMore)
		}
		out = &s.more.cbuf
	}
	z, err := s.c.Compress((*out)[:0], chunk)
	if err != nil {
		return s.fail(err)
	}
	if cap(z) >= cap(*out) {
		*out = z[:0]
	}
	s.storeChunk(chunk, z)
	return nil
}

// roomInPage returns the last page when it has room for a chunk of n bytes
// at the compressor's worst case, with its header.
func (s *OutStream) roomInPage(n int) (int, bool) {
	st := s.st
	if st == nil {
		return -1, false
	}
	k := st.used - 1
	return k, k >= 0 && cap(st.pages[k])-len(st.pages[k]) >= chunkHeaderSize+compressBound(s.c, n)
}

// storeChunk stores a chunk compressed elsewhere: z, or src itself when z
// is not smaller, in the last page when roomInPage, else across pages.
func (s *OutStream) storeChunk(src, z []byte) {
	st := s.stored()
	orig := len(z) >= len(src)
	payload := z
	if orig {
		payload = src
	}
	if k, ok := s.roomInPage(len(src)); ok {
		pg := st.pages[k]
		at := len(pg) + chunkHeaderSize
		n := copy(pg[at:cap(pg)], payload)
		putChunkHeader(pg[len(pg):at], n, orig)
		st.pages[k] = pg[:at+n]
		st.n += int64(chunkHeaderSize + n)
		return
	}
	if len(st.pages) == 0 {
		s.addPage(s.pageSize(chunkHeaderSize + len(payload))) // header and payload together
	}
	var h [chunkHeaderSize]byte
	s.store(appendChunkHeader(h[:0], len(payload), orig))
	s.store(payload)
}

// emitInPage compresses chunk straight into page k, the last, which has
// room for the header and the compressor's worst case.
func (s *OutStream) emitInPage(k int, chunk []byte) error {
	st := s.stored()
	pg := st.pages[k]
	at := len(pg) + chunkHeaderSize
	dst := pg[at:at:cap(pg)]
	z, err := s.c.Compress(dst, chunk)
	if err != nil {
		return s.fail(err)
	}
	n := len(z)
	if n < len(chunk) {
		if n > 0 && &z[:1][0] != &dst[:1][0] {
			copy(pg[at:cap(pg)], z) // a Compressor that made its own buffer
		}
		putChunkHeader(pg[len(pg):at], n, false)
	} else {
		n = copy(pg[at:cap(pg)], chunk)
		putChunkHeader(pg[len(pg):at], n, true)
	}
	st.pages[k] = pg[:at+n]
	st.n += int64(chunkHeaderSize + n)
	return nil
}

// deferChunk has the pipeline compress src, a buffer the stream gives up.
// It first stores the chunks already compressed, and waits for the oldest
// when the stream has maxStreamJobs in flight, which bounds the memory a
// fast encoder can tie up ahead of the compression.
func (s *OutStream) deferChunk(src []byte) {
	pp := s.pp
	n := int64(chunkHeaderSize + len(src))
	s.stored().sinceMark += n
	pp.pending += n
	pp.chunks++
	s.storeDone()
	for len(pp.jobs) >= maxStreamJobs && s.err == nil {
		s.storeJobs(1)
	}
	j := pp.pipe.newJob(src)
	pp.jobs = append(pp.jobs, j)
	pp.pipe.submit(j)
}

// maxStreamJobs is the most chunks of one stream in flight at once.
const maxStreamJobs = 4

// storeDone stores the leading chunks whose compression has finished,
// without waiting.
func (s *OutStream) storeDone() {
	k := 0
	for jobs := s.pp.jobs; k < len(jobs) && jobs[k].finished.Load(); {
		k++
	}
	if k > 0 {
		s.storeJobs(k)
	}
}

// storeJobs stores the first n deferred chunks, waiting for each to be
// compressed, and returns the stream's error.
func (s *OutStream) storeJobs(n int) error {
	pp := s.pp
	for i, j := range pp.jobs[:n] {
		j.done.Wait()
		if s.err == nil {
			if j.err != nil {
				s.fail(j.err)
			} else {
				s.storeDeferred(j.src, j.out)
			}
		}
		pp.pending -= int64(chunkHeaderSize + len(j.src))
		s.giveBack(j)
		pp.jobs[i] = nil
	}
	k := copy(pp.jobs, pp.jobs[n:])
	clear(pp.jobs[k:])
	pp.jobs = pp.jobs[:k]
	return s.err
}

// giveBack returns a finished job and its buffers.
func (s *OutStream) giveBack(j *chunkJob) {
	if s.pool != nil {
		s.pool.putBuf(j.src)
	}
	s.pp.pipe.putJob(j)
}

// dropJobs waits for the deferred chunks and discards them.
func (s *OutStream) dropJobs() {
	pp := s.pp
	if pp == nil {
		return
	}
	for i, j := range pp.jobs {
		j.done.Wait()
		s.giveBack(j)
		pp.jobs[i] = nil
	}
	pp.jobs = pp.jobs[:0]
	pp.pending = 0
}

// storeDeferred stores a chunk the pipeline compressed where emit would
// have (storeChunk), noting where it starts and what the pages hold after
// it.
func (s *OutStream) storeDeferred(src, z []byte) {
	st := s.stored()
	s.pp.starts = append(s.pp.starts, st.n)
	s.storeChunk(src, z)
	s.pp.heldAt = append(s.pp.heldAt, st.held)
}

// Settle returns what the stream counts as holding, for deciding where a
// stripe ends: the capacity of its pages as of settleLag Settles ago plus
// the chunks emitted since then at their uncompressed size (headers
// included); for codec NONE, the capacity of its pages. The value does not
// depend on whether a pipeline compresses the chunks, or on how far it
// has got: a deferred stream first stores the chunks emitted before that
// Settle, waiting for their compression if need be, and takes the
// capacity its pages had after the last of them. It returns the stream's
// error too.
func (s *OutStream) Settle() (int64, error) {
	st := s.st
	if st == nil {
		// Nothing stored or emitted since the stream was made or
		// Released: every mark is zero.
		return 0, s.err
	}
	if s.comp == orc.CompressionNone {
		return st.held, s.err
	}
	// The mark settleLag Settles back leaves the ring: what was emitted
	// before it counts as stored, what came after as emitted.
	pp := s.pp
	mark := settleMark{since: st.sinceMark, held: st.held}
	if pp != nil {
		mark.chunks = pp.chunks
	}
	old, since := st.pushMark(mark)
	st.sinceMark = 0
	if pp == nil {
		return old.held + since, s.err
	}
	m := old.chunks
	if short := m - len(pp.starts); short > 0 && s.err == nil {
		s.storeJobs(min(short, len(pp.jobs)))
	}
	if s.err != nil {
		return 0, s.err
	}
	s.storeDone()
	var v int64
	if m > 0 {
		v = pp.heldAt[m-1]
	}
	return v + since, s.err
}

// pushMark notes m in the ring of marks and returns the mark it replaces
// and the sum of the ring's intervals after it (settleMarks.push). The ring
// is allocated at the first mark that is not zero: a stream of a wide
// schema's column, written only at its stripe's end, never has one.
func (st *pageStore) pushMark(m settleMark) (settleMark, int64) {
	if st.marks == nil {
		if m == (settleMark{}) {
			return settleMark{}, 0
		}
		st.marks = new(settleMarks)
	}
	old := st.marks.push(m)
	return old, st.marks.since
}

// settleLag is how many Settles back the pages are counted as stored:
// the chunks emitted since count at their uncompressed size. A pipeline
// then has the time of settleLag writes to compress a chunk before Settle
// waits for it; with 1, a stream whose chunks take longer to compress
// than a write takes to encode (long text: 3 ms for 256 KiB at ZSTD's
// level 3) held up every write. The cost is a stripe size counted a
// little high: by what compression saves on settleLag writes' chunks.
const settleLag = 4

// settleMark is what a stream noted at one Settle: the bytes emitted in
// the interval it ended, uncompressed with headers, the chunks emitted
// before it, and (without a pipeline) the pages' capacity then.
type settleMark struct {
	since  int64
	chunks int
	held   int64
}

// settleMarks is a ring of the last settleLag marks, with the sum of
// their intervals.
type settleMarks struct {
	ring  [settleLag]settleMark
	next  int   // ring index of the oldest mark, to be replaced
	since int64 // sum of the marks' since
}

// push adds m and returns the mark it replaces: the one settleLag Settles
// back, or the zero mark (the stripe's start) before there were as many.
func (r *settleMarks) push(m settleMark) settleMark {
	old := r.ring[r.next]
	r.ring[r.next] = m
	r.next = (r.next + 1) % settleLag
	r.since += m.since - old.since
	return old
}

// fail records a compression error, which is sticky until Reset.
func (s *OutStream) fail(err error) error {
	s.err = fmt.Errorf("format: %v compression: %w", s.comp, err)
	s.buf = nil // keeps WriteByte's fast path off until Reset
	return s.err
}

// Page sizes of the stored bytes.
const (
	firstPage = 4 << 10
	maxPage   = 1 << 20
	// minPage is the least a stream's first page holds. The pool keeps
	// pages of firstPage multiples only; smaller first pages, which only
	// streams of a few bytes take, go to the collector.
	minPage = 64
)

// pageSize is the capacity of the next page for a stream of n bytes: a
// quarter of them, so the last page's unused room stays under a quarter;
// the first page just holds them when they are fewer than firstPage.
func (s *OutStream) pageSize(n int) int {
	if len(s.stored().pages) == 0 && n < firstPage {
		size := minPage
		for size < n {
			size *= 2
		}
		return size
	}
	return min(max(firstPage, n/4&^(firstPage-1)), maxPage)
}

// addPage adds an empty page of capacity size after the pages.
func (s *OutStream) addPage(size int) {
	st := s.stored()
	pg := s.newPage(size)
	st.pages = append(st.pages, pg)
	st.held += int64(cap(pg))
}

// store appends p to the pages.
func (s *OutStream) store(p []byte) {
	st := s.stored()
	st.n += int64(len(p))
	for len(p) > 0 {
		k := int(st.used) - 1
		if k < 0 || len(st.pages[k]) == cap(st.pages[k]) {
			if int(st.used) == len(st.pages) {
				// A quarter of what the stream holds, so the last
				// page's unused room stays under a quarter of it.
				s.addPage(s.pageSize(int(st.n)))
			}
			st.used++
			k++
		}
		pg := st.pages[k]
		c := copy(pg[len(pg):cap(pg)], p)
		st.pages[k] = pg[:len(pg)+c]
		p = p[c:]
	}
}

// AppendPosition appends the stream's current position to dst in the form
// InStream.Seek consumes: [bytes written] for codec NONE; otherwise
// [bytes of chunks emitted, headers included; bytes buffered for the next
// chunk].
func (s *OutStream) AppendPosition(dst []uint64) []uint64 {
	if s.comp == orc.CompressionNone {
		return append(dst, uint64(s.storedBytes()))
	}
	if pp := s.pp; pp != nil {
		// The chunk's offset is known once the chunks before it are
		// compressed: a placeholder for Pipeline.Resolve.
		return append(dst, virtualPos(pp.tag, pp.chunks), uint64(len(s.buf)))
	}
	return append(dst, uint64(s.storedBytes()), uint64(len(s.buf)))
}

// Flush emits the buffered bytes as a possibly short chunk, so that the next
// byte written starts a new chunk and the position is then [bytes emitted;
// 0]. Call it when the stripe ends, before WriteTo, and wherever a position
// must fall on a chunk start (aligned row groups). With nothing buffered,
// and with codec NONE, it does nothing.
func (s *OutStream) Flush() error {
	if s.err != nil {
		return s.err
	}
	if len(s.buf) > 0 {
		return s.emitBuf()
	}
	return nil
}

// Finish is Flush at the end of the stream's stripe: it emits the buffered
// bytes and lets go of the chunk buffer (to the pool when it is a whole
// block, else to the collector), as nothing more is written before the
// stripe is stored and the stream Released or Reset. A stream written
// after Finish takes a buffer again. Streams of a wide schema's columns,
// a few bytes each, held a buffer of 256 bytes and up apiece until the
// stripe was written.
func (s *OutStream) Finish() error {
	if err := s.Flush(); err != nil {
		return err
	}
	s.dropBuf()
	return nil
}

// dropBuf lets go of the chunk buffer: a whole block to the pool, a
// part-grown one to the collector.
func (s *OutStream) dropBuf() {
	if s.pool != nil && cap(s.buf) == int(s.blockSize) {
		s.pool.putBuf(s.buf)
	}
	s.buf = nil
}

// Size returns the bytes stored plus those buffered or being compressed,
// uncompressed. After Flush (with a pipeline, Pipeline.Finish) it is the
// exact stored size.
func (s *OutStream) Size() int64 {
	n := s.storedBytes() + int64(len(s.buf))
	if s.pp != nil {
		n += s.pp.pending
	}
	return n
}

// Stored returns the capacity of the buffers holding the stored stream:
// the memory it takes beyond the chunk buffers.
func (s *OutStream) Stored() int64 {
	if s.st == nil {
		return 0
	}
	return s.st.held
}

// Bytes returns the stored stream emitted so far (call Flush first for all
// of it). It is a copy when the stream spans more than one page, and stays
// valid until the next write or Reset.
func (s *OutStream) Bytes() []byte {
	if s.pp != nil && s.storeJobs(len(s.pp.jobs)) != nil {
		return nil
	}
	st := s.st
	if st == nil {
		return nil
	}
	switch st.used {
	case 0:
		return nil
	case 1:
		return st.pages[0]
	}
	out := make([]byte, 0, st.n)
	for _, pg := range st.pages[:st.used] {
		out = append(out, pg...)
	}
	return out
}

// WriteTo flushes the stream and writes its stored bytes to w.
func (s *OutStream) WriteTo(w io.Writer) (int64, error) {
	if err := s.Flush(); err != nil {
		return 0, err
	}
	if s.pp != nil {
		if err := s.storeJobs(len(s.pp.jobs)); err != nil {
			return 0, err
		}
	}
	var n int64
	if s.st == nil {
		return 0, nil
	}
	st := s.st
	for _, pg := range st.pages[:st.used] {
		k, err := w.Write(pg)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// DetachPages flushes the stream and hands its stored bytes over: it
// appends the pages holding them, in order, to data, and the whole array
// of each page that came from the pool to own, then empties the stream as
// Release does. The pages are no longer the stream's: the caller writes
// them out and gives own back to the pool (PagePool.Give), perhaps on
// another goroutine while the stream fills again from the pool.
func (s *OutStream) DetachPages(data, own [][]byte) ([][]byte, [][]byte, error) {
	if err := s.Flush(); err != nil {
		return data, own, err
	}
	if s.pp != nil {
		if err := s.storeJobs(len(s.pp.jobs)); err != nil {
			return data, own, err
		}
	}
	var lent int64
	if st := s.st; st != nil {
		for i, pg := range st.pages[:st.used] {
			data = append(data, pg)
			st.pages[i] = nil
			if s.pool != nil {
				own = append(own, st.full[i])
				lent += int64(cap(st.full[i]))
				st.full[i] = nil
			}
		}
	}
	if lent > 0 {
		s.pool.mu.Lock()
		s.pool.lent += lent
		s.pool.mu.Unlock()
	}
	s.Release() // what is left: pages kept from before a Reset, the chunk buffer
	return data, own, nil
}

// newPage returns an empty page of capacity size. A small first page
// (pageSize) comes from the pool's smallest pages when it has one, but
// with the capacity asked for: what a stream counts as holding (Stored,
// Settle), and with it where a writer cuts its stripes, must not depend on
// what the pool held at the time, which for a parallel writer depends on
// when its background stripe writes gave their pages back. A page from
// the pool may have a larger array, which Release gives back whole.
func (s *OutStream) newPage(size int) []byte {
	if s.pool == nil {
		return make([]byte, 0, size)
	}
	if pg := s.pool.getPage(max(size, firstPage)); pg != nil {
		s.st.full = append(s.st.full, pg)
		return pg[:0:size]
	}
	pg := make([]byte, 0, size)
	s.st.full = append(s.st.full, pg)
	return pg[:0:size]
}

// Release empties the stream as Reset does, but gives its pages and chunk
// buffer to its pool (without a pool, to the garbage collector), so that
// the stream holds no memory until it is written again. Bytes returned
// before are no longer valid.
func (s *OutStream) Release() {
	s.dropJobs()
	s.resetMarks()
	if st := s.st; st != nil {
		for i := range st.pages {
			if s.pool != nil {
				s.pool.putPage(st.full[i])
				st.full[i] = nil
			}
			st.pages[i] = nil
		}
		st.pages, st.full = st.pages[:0], st.full[:0]
		st.used, st.n, st.held = 0, 0, 0
	}
	s.dropBuf()
	if s.more != nil {
		s.more.cbuf = nil
	}
	s.err = s.setupErr()
}

// Drop is Release for a stream that is not to be written again soon: it
// lets go of the stream's bookkeeping too (its lists of pages, Settle's
// marks), so that it takes 96 bytes. Written again, it makes them anew. A
// writer drops each stream of a stripe once the stream is written.
func (s *OutStream) Drop() {
	s.Release()
	s.st = nil
}

// Reset empties the stream for the next stripe, keeping its buffers and
// clearing an error from the compressor.
func (s *OutStream) Reset() {
	s.dropJobs()
	s.resetMarks()
	if st := s.st; st != nil {
		for i := range st.pages[:st.used] {
			st.pages[i] = st.pages[i][:0]
		}
		st.used, st.n = 0, 0
	}
	s.buf = s.buf[:0]
	s.err = s.setupErr()
}

func (s *OutStream) resetMarks() {
	if st := s.st; st != nil {
		st.sinceMark = 0
		if st.marks != nil {
			*st.marks = settleMarks{}
		}
	}
	if pp := s.pp; pp != nil {
		pp.chunks = 0
		pp.starts, pp.heldAt = pp.starts[:0], pp.heldAt[:0]
	}
}

// PagePool keeps the pages and chunk buffers that streams give back on
// Release, for the streams of the next stripe: a writer that releases every
// stream once its stripe is written reuses that memory instead of
// allocating a stripe's worth for each stripe. Every stream takes its pages
// in the same sequence of sizes (see store), so the pages of one stripe fit
// the next. Trim drops what the pool holds. A PagePool is safe for
// concurrent use by streams on different goroutines.
type PagePool struct {
	mu    sync.Mutex
	pages [maxPage / firstPage][][]byte // free pages by size, (size / firstPage) - 1
	bufs  []freeBufs                    // free chunk buffers, by capacity
	held  int64                         // bytes of capacity free in the pool
	lent  int64                         // bytes of pages DetachPages handed out, not given back yet
}

// NewPagePool returns an empty pool.
func NewPagePool() *PagePool { return &PagePool{} }

// Held returns the bytes of capacity the pool holds, free for streams.
func (p *PagePool) Held() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// Trim drops every free page, and the free chunk buffers that stayed in
// the pool since the last Trim: of each capacity, as many as were never
// all taken out. A writer calls it once a stripe's chunks are stored,
// before releasing that stripe's streams: what the pool still held then
// went unused for a whole stripe. The other buffers went round (a
// pipeline's short chunks travel in them and come back when stored) and
// the next stripe wants as many again: dropping those made them garbage at
// every stripe's end, some 1.2 MB a stripe of the bench's lineitem on two
// goroutines (5 KB of each 4,096-row batch's allocations).
func (p *PagePool) Trim() { p.TrimTo(0) }

// TrimTo is Trim keeping up to keep bytes of free pages, the smallest:
// a writer whose stripes go out in the background (DetachPages) keeps
// what its next stripe's streams start in while the last is written,
// which are pages of the sizes streams start with.
func (p *PagePool) TrimTo(keep int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.pages {
		k := 0
		for _, pg := range p.pages[i] {
			if c := int64(cap(pg)); c <= keep {
				keep -= c
				p.pages[i][k] = pg
				k++
			} else {
				keep = 0
				p.held -= c
			}
		}
		clear(p.pages[i][k:])
		p.pages[i] = p.pages[i][:k]
	}
	for i := range p.bufs {
		f := &p.bufs[i]
		for _, b := range f.free[:f.low] {
			p.held -= int64(cap(b))
		}
		k := copy(f.free, f.free[f.low:])
		clear(f.free[k:])
		f.free = f.free[:k]
		f.low = k
	}
}

// FreePages returns the bytes of capacity of the free pages the pool
// holds (Held less its free chunk buffers).
func (p *PagePool) FreePages() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.freePages()
}

func (p *PagePool) freePages() int64 {
	var n int64
	for _, free := range p.pages {
		for _, pg := range free {
			n += int64(cap(pg))
		}
	}
	return n
}

// TrimPagesTo drops free pages, the largest first, until those left take
// at most keep bytes. Unlike TrimTo it leaves the chunk buffers alone.
func (p *PagePool) TrimPagesTo(keep int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.freePages()
	for i := len(p.pages) - 1; i >= 0 && n > keep; i-- {
		free := p.pages[i]
		for len(free) > 0 && n > keep {
			c := int64(cap(free[len(free)-1]))
			free[len(free)-1] = nil
			free = free[:len(free)-1]
			n -= c
			p.held -= c
		}
		p.pages[i] = free
	}
}

func (p *PagePool) getPage(size int) []byte {
	i := size/firstPage - 1
	if size%firstPage != 0 || i < 0 || i >= len(p.pages) {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// The size asked for, else the next larger one there is, up to
	// twice the size.
	for len(p.pages[i]) == 0 {
		if i++; i >= len(p.pages) || i > 2*(size/firstPage) {
			if p.lent == 0 {
				// With pages out (DetachPages), the pool is
				// short of what comes back, not over.
				p.drop(size)
			}
			return nil
		}
	}
	free := p.pages[i]
	pg := free[len(free)-1]
	free[len(free)-1] = nil
	p.pages[i] = free[:len(free)-1]
	p.held -= int64(cap(pg))
	return pg[:0]
}

// drop lets go of free pages of at least size bytes in all (the largest
// first), for a page of size the caller is about to allocate: the pool and
// the streams together then hold no more than the pool held before,
// however the sizes the streams need shift from one stripe to the next.
func (p *PagePool) drop(size int) {
	for i := len(p.pages) - 1; i >= 0 && size > 0; i-- {
		free := p.pages[i]
		for len(free) > 0 && size > 0 {
			pg := free[len(free)-1]
			free[len(free)-1] = nil
			free = free[:len(free)-1]
			p.held -= int64(cap(pg))
			size -= cap(pg)
		}
		p.pages[i] = free
	}
}

func (p *PagePool) putPage(pg []byte) {
	i := cap(pg)/firstPage - 1
	if cap(pg)%firstPage != 0 || i < 0 || i >= len(p.pages) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages[i] = append(p.pages[i], pg[:0])
	p.held += int64(cap(pg))
}

// Give returns a page that OutStream.DetachPages handed out (its whole
// array, as it gave it) to the pool, for the streams still writing.
func (p *PagePool) Give(page []byte) {
	p.putPage(page)
	p.mu.Lock()
	p.lent -= int64(cap(page))
	p.mu.Unlock()
}

// freeBufs are the pool's free chunk buffers of one capacity.
type freeBufs struct {
	size int
	free [][]byte
	low  int // the fewest free since the last Trim: those not taken out since
}

func (p *PagePool) getBuf(size int) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.bufs {
		f := &p.bufs[i]
		if f.size != size || len(f.free) == 0 {
			continue
		}
		last := len(f.free) - 1
		b := f.free[last]
		f.free[last] = nil
		f.free = f.free[:last]
		f.low = min(f.low, last)
		p.held -= int64(cap(b))
		return b[:0]
	}
	return nil
}

func (p *PagePool) putBuf(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.held += int64(cap(b))
	for i := range p.bufs {
		if f := &p.bufs[i]; f.size == cap(b) {
			f.free = append(f.free, b[:0])
			return
		}
	}
	p.bufs = append(p.bufs, freeBufs{size: cap(b), free: [][]byte{b[:0]}})
}
