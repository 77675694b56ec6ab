package format

// Deferred compression.
//
// A Pipeline lets a writer's streams hand their full chunks to other
// goroutines instead of compressing them where they fill, so that encoding
// the next rows and compressing the last ones overlap. The stored bytes are
// the same as with a Compressor of the same codec and level: each chunk is
// compressed on its own, with no state carried from one to the next, and
// chunks are stored in the order they were emitted, by the same rules
// (see storeChunk).
//
// Two things of a stream depend on compressed sizes while it is written,
// and both are made independent of when the compression finishes:
//
//   - A position names the chunk the next byte goes into by its index,
//     in a placeholder value (virtualPos) that Pipeline.Resolve replaces by
//     the chunk's offset once the stripe's chunks are all stored.
//   - What a stream counts as holding (Settle), by which a writer decides
//     where a stripe ends, is the size of its pages as of settleLag (4)
//     Settles back plus the chunks emitted since, uncompressed, whether
//     or not the compression is deferred. A deferred stream stores the
//     chunks emitted before that Settle at each Settle, waiting for them
//     if need be: compression may lag encoding by four Settles.

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/orcgo/orc"
)

// Pipeline compresses the chunks of its streams on other goroutines, as
// many at once as NewPipeline's workers. Its methods are safe for
// concurrent use, but each stream is used by one goroutine at a time, as
// OutStream requires.
type Pipeline struct {
	kind      orc.CompressionKind
	blockSize int
	bound     Compressor // for compressBound only
	workers   int

	mu      sync.Mutex
	comps   []Compressor // idle compressors
	queue   []*chunkJob  // submitted, not started, from head
	head    int
	active  int             // goroutines working the queue
	streams []*OutStream    // registered since the last Forget; index = tag
	kept    []streamScratch // by tag, the slices of the streams forgotten last
	jobs    []*chunkJob     // finished jobs, for the next chunks
}

// NewPipeline returns a pipeline compressing with the codec and level (as
// NewBlockCompressor takes them) on up to workers goroutines. Each worker
// has a compressor of its own; own, when not nil, must compress the same
// way (NewBlockCompressor with the same arguments) and serves as one of
// them, so that a writer's compressor is not duplicated: the caller may use
// it only while no chunk is in flight (before a stream's first chunk, or
// after Finish or the streams' Release).
func NewPipeline(kind orc.CompressionKind, level, blockSize, workers int, own Compressor) (*Pipeline, error) {
	if kind == orc.CompressionNone {
		return nil, fmt.Errorf("format: a compression pipeline for codec NONE")
	}
	if blockSize < minPipelineBlock || blockSize > maxChunkLength {
		return nil, fmt.Errorf("format: compression pipeline block size %d not in %d..%d", blockSize, minPipelineBlock, maxChunkLength)
	}
	workers = max(workers, 1)
	p := &Pipeline{kind: kind, blockSize: blockSize, workers: workers}
	if own != nil {
		p.comps = append(p.comps, own)
		p.bound = own
	}
	for len(p.comps) < workers {
		c, err := NewBlockCompressor(kind, level, blockSize)
		if err != nil {
			return nil, err
		}
		p.comps = append(p.comps, c)
		p.bound = c
	}
	return p, nil
}

// minPipelineBlock keeps a stream's chunk indexes within 32 bits: a stripe
// would need 2^32 KiB in one stream to overflow them.
const minPipelineBlock = 1 << 10

// NewStream returns an empty stream whose chunks the pipeline compresses,
// with pages from pool (as NewPooledOutStream). Its positions hold
// placeholders until Resolve.
func (p *Pipeline) NewStream(pool *PagePool) *OutStream {
	s := NewPooledOutStream(p.kind, p.blockSize, p.bound, pool)
	pp := &pipedState{pipe: p}
	s.pp = pp
	p.mu.Lock()
	pp.tag = uint32(len(p.streams))
	p.streams = append(p.streams, s)
	if int(pp.tag) < len(p.kept) {
		// A writer creates its streams in the same order every stripe:
		// the stream of this tag last time had about as many chunks.
		k := &p.kept[pp.tag]
		pp.jobs, pp.starts, pp.heldAt = k.jobs, k.starts, k.heldAt
		*k = streamScratch{}
	}
	p.mu.Unlock()
	return s
}

// Finish waits for every chunk of the registered streams and stores it,
// returning the first error of a stream's compression. Their sizes and
// bytes are then final, and Resolve can be called.
func (p *Pipeline) Finish() error {
	p.mu.Lock()
	streams := p.streams
	p.mu.Unlock()
	var first error
	for _, s := range streams {
		if err := s.storeJobs(len(s.pp.jobs)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Resolve replaces the placeholders in positions by the offsets they stand
// for. Call it after Finish.
func (p *Pipeline) Resolve(positions []uint64) error {
	p.mu.Lock()
	streams := p.streams
	p.mu.Unlock()
	for i, v := range positions {
		if v&virtualBit == 0 {
			continue
		}
		tag, idx := int(v>>32&(1<<31-1)), int(v&(1<<32-1))
		if tag >= len(streams) {
			return fmt.Errorf("format: position of unknown stream %d", tag)
		}
		s := streams[tag]
		pp := s.pp
		switch {
		case len(pp.jobs) > 0:
			return fmt.Errorf("format: position resolved before its stream's chunks are stored")
		case idx < len(pp.starts):
			positions[i] = uint64(pp.starts[idx])
		case idx == len(pp.starts):
			positions[i] = uint64(s.storedBytes())
		default:
			return fmt.Errorf("format: position in chunk %d of a stream of %d chunks", idx, len(pp.starts))
		}
	}
	return nil
}

// Forget drops the registered streams, which must no longer be resolved
// against: a writer calls it when it has released a stripe's streams.
func (p *Pipeline) Forget() {
	p.mu.Lock()
	if len(p.kept) < len(p.streams) {
		p.kept = append(p.kept, make([]streamScratch, len(p.streams)-len(p.kept))...)
	}
	for i, s := range p.streams {
		if pp := s.pp; len(pp.jobs) == 0 { // released, as it should be
			p.kept[i] = streamScratch{pp.jobs[:0], pp.starts[:0], pp.heldAt[:0]}
			pp.jobs, pp.starts, pp.heldAt = nil, nil, nil
		}
	}
	clear(p.streams)
	p.streams = p.streams[:0]
	p.mu.Unlock()
}

// streamScratch is what a stream's slices grew to, for the stream of the
// same tag in the next stripe.
type streamScratch struct {
	jobs           []*chunkJob
	starts, heldAt []int64
}

// virtualBit marks a placeholder position: virtualBit | tag<<32 | chunk.
// No real position comes near 2^63.
const virtualBit = 1 << 63

func virtualPos(tag uint32, chunk int) uint64 {
	return virtualBit | uint64(tag)<<32 | uint64(uint32(chunk))
}

// chunkJob is one chunk being compressed. The pipeline keeps finished jobs
// for the next chunks.
type chunkJob struct {
	src      []byte // the chunk, in a buffer the job owns
	out      []byte // compressed form, over src's first bytes, or src itself (see compress)
	err      error
	finished atomic.Bool    // out and err are set
	done     sync.WaitGroup // Done when finished
}

// submit queues j, starting a goroutine to work the queue unless workers
// of them already do. The goroutines end when the queue is empty, so an
// idle pipeline (and a writer never closed) holds none.
func (p *Pipeline) submit(j *chunkJob) {
	j.done.Add(1)
	p.mu.Lock()
	if p.head > 0 && p.head >= len(p.queue)/2 {
		n := copy(p.queue, p.queue[p.head:])
		clear(p.queue[n:])
		p.queue, p.head = p.queue[:n], 0
	}
	p.queue = append(p.queue, j)
	start := p.active < p.workers
	if start {
		p.active++
	}
	p.mu.Unlock()
	if start {
		go p.work()
	}
}

// work compresses queued jobs in order until the queue is empty.
func (p *Pipeline) work() {
	var scratch []byte // output buffer for a Compressor without its own
	p.mu.Lock()
	c := p.comps[len(p.comps)-1]
	p.comps = p.comps[:len(p.comps)-1]
	for p.head < len(p.queue) {
		j := p.queue[p.head]
		p.queue[p.head] = nil
		p.head++
		if p.head == len(p.queue) {
			p.queue, p.head = p.queue[:0], 0
		}
		p.mu.Unlock()
		j.compress(c, &scratch)
		j.finished.Store(true)
		j.done.Done()
		p.mu.Lock()
	}
	p.comps = append(p.comps, c)
	p.active--
	p.mu.Unlock()
}

// newJob returns a job for chunk src.
func (p *Pipeline) newJob(src []byte) *chunkJob {
	p.mu.Lock()
	var j *chunkJob
	if k := len(p.jobs) - 1; k >= 0 {
		j = p.jobs[k]
		p.jobs[k] = nil
		p.jobs = p.jobs[:k]
	}
	p.mu.Unlock()
	if j == nil {
		j = new(chunkJob)
	}
	j.src = src
	return j
}

// putJob keeps a finished job, its buffers given back, for another chunk.
func (p *Pipeline) putJob(j *chunkJob) {
	j.src, j.out, j.err = nil, nil, nil
	j.finished.Store(false)
	p.mu.Lock()
	p.jobs = append(p.jobs, j)
	p.mu.Unlock()
}

// compress compresses the job's chunk with c, into c's output buffer (or
// scratch), and moves the result over the chunk's first bytes when it is
// smaller: the chunk is not needed once compressed, so a finished job that
// waits to be stored holds one buffer, not two, and the pipeline keeps no
// output buffers. A result no smaller leaves the chunk as it is, to be
// stored uncompressed (storeChunk).
func (j *chunkJob) compress(c Compressor, scratch *[]byte) {
	out := scratch
	if b, ok := c.(buffered); ok {
		out = b.outBuf()
	}
	z, err := c.Compress((*out)[:0], j.src)
	if err != nil {
		j.err = err
		return
	}
	if cap(z) > cap(*out) {
		*out = z[:0]
	}
	if len(z) < len(j.src) {
		j.out = j.src[:copy(j.src, z)]
	} else {
		j.out = j.src
	}
}
