package format

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// TestPipelineSameAsImmediate drives a stream that compresses where its
// chunks fill and one whose chunks a pipeline compresses with the same
// random writes, flushes, positions and Settles, and checks that every
// Settle returns the same value, that the resolved positions equal the
// immediate ones, and that the stored bytes are the same, through two
// stripes (Release, Forget) and for several codecs and block sizes.
func TestPipelineSameAsImmediate(t *testing.T) {
	for _, kind := range []orc.CompressionKind{orc.CompressionZstd, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4} {
		for _, block := range []int{1 << 10, 3000, 64 << 10} {
			t.Run(fmt.Sprintf("%v/%d", kind, block), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(kind), uint64(block)))
				c, err := NewBlockCompressor(kind, 0, block)
				if err != nil {
					t.Fatal(err)
				}
				p, err := NewPipeline(kind, 0, block, 3, nil)
				if err != nil {
					t.Fatal(err)
				}
				pool, ppool := NewPagePool(), NewPagePool()
				for stripe := range 2 {
					const n = 4
					var imm, def []*OutStream
					for range n {
						imm = append(imm, NewPooledOutStream(kind, block, c, pool))
						def = append(def, p.NewStream(ppool))
					}
					var wantPos, gotPos []uint64
					for step := range 400 {
						i := rng.IntN(n)
						switch op := rng.IntN(20); {
						case op < 12:
							b := pipelineData(rng, rng.IntN(3*block))
							imm[i].Write(b)
							def[i].Write(b)
						case op < 14:
							b := byte(rng.IntN(4))
							imm[i].WriteByte(b)
							def[i].WriteByte(b)
						case op < 15:
							imm[i].Flush()
							def[i].Flush()
						case op < 18:
							wantPos = imm[i].AppendPosition(wantPos)
							gotPos = def[i].AppendPosition(gotPos)
						default:
							for k := range n {
								want, err1 := imm[k].Settle()
								got, err2 := def[k].Settle()
								if err1 != nil || err2 != nil {
									t.Fatal(err1, err2)
								}
								if got != want {
									t.Fatalf("stripe %d, step %d, stream %d: Settle %d, want %d", stripe, step, k, got, want)
								}
							}
						}
					}
					for k := range n {
						imm[k].Flush()
						def[k].Flush()
					}
					if err := p.Finish(); err != nil {
						t.Fatal(err)
					}
					if err := p.Resolve(gotPos); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(gotPos, wantPos) {
						t.Fatalf("stripe %d: resolved positions differ:\n got %v\nwant %v", stripe, gotPos, wantPos)
					}
					for k := range n {
						if imm[k].Size() != def[k].Size() || !bytes.Equal(imm[k].Bytes(), def[k].Bytes()) {
							t.Fatalf("stripe %d, stream %d: %d stored bytes differ from %d", stripe, k, def[k].Size(), imm[k].Size())
						}
						if imm[k].Stored() != def[k].Stored() {
							t.Fatalf("stripe %d, stream %d: pages of %d bytes, want %d", stripe, k, def[k].Stored(), imm[k].Stored())
						}
						imm[k].Release()
						def[k].Release()
					}
					p.Forget()
				}
			})
		}
	}
}

// pipelineData returns n bytes mixing runs, text and noise, so that some
// chunks compress and some are stored as they are.
func pipelineData(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	switch rng.IntN(3) {
	case 0:
		for i := range b {
			b[i] = byte(i / 97)
		}
	case 1:
		for i := range b {
			b[i] = "0123456789abcdef-"[rng.IntN(17)]
		}
	default:
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

// setCompressor makes c the one-worker pipeline's compressor once its
// worker has given the old one back (it may still be compressing chunks
// of a stream released or failed before).
func setCompressor(t *testing.T, p *Pipeline, c Compressor) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.mu.Lock()
		if p.active == 0 && len(p.comps) == 1 {
			p.comps[0] = c
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the pipeline's worker still holds its compressor after 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPipelineErrors checks that a compressor's failure in a pipeline
// worker reaches the stream: at a Settle or at Finish, sticky, and that a
// stream abandoned with chunks in flight is released cleanly.
func TestPipelineErrors(t *testing.T) {
	p, err := NewPipeline(orc.CompressionZlib, 0, 1<<10, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	setCompressor(t, p, &failingCompressor{ok: 2})
	s := p.NewStream(nil)
	for range 6 {
		s.Write(make([]byte, 1<<10))
	}
	// The chunks are compressed as the pipeline's worker gets to them: a
	// Settle returns the failure once it has come back, and at the latest
	// settleLag Settles after the chunk, when Settle waits for it (under
	// -race on a loaded machine the second Settle may come first).
	var serr error
	for i := 0; i <= settleLag && serr == nil; i++ {
		_, serr = s.Settle()
	}
	if !errors.Is(serr, errCompress) {
		t.Fatalf("%d Settles after a failed chunk: %v, want the compressor's error", settleLag+1, serr)
	}
	if _, err := s.Write([]byte{1}); !errors.Is(err, errCompress) {
		t.Fatalf("Write after the failure: %v", err)
	}
	if err := p.Finish(); !errors.Is(err, errCompress) {
		t.Fatalf("Finish: %v", err)
	}
	s.Release()
	p.Forget()

	// Chunks in flight when the stream is released.
	setCompressor(t, p, &failingCompressor{ok: 1 << 30})
	s = p.NewStream(NewPagePool())
	for range 20 {
		s.Write(make([]byte, 1<<10))
	}
	s.Release()
	if s.Size() != 0 || len(s.pp.jobs) != 0 {
		t.Fatalf("after Release: size %d, %d jobs", s.Size(), len(s.pp.jobs))
	}
	if _, err := s.Write(make([]byte, 3<<10)); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := len(s.Bytes()); got != 3*(1<<10+chunkHeaderSize) {
		t.Fatalf("stream after reuse holds %d bytes", got)
	}
}

// TestPipelineResolveErrors checks that positions naming no stream or no
// chunk are refused rather than replaced by a wrong offset.
func TestPipelineResolveErrors(t *testing.T) {
	p, err := NewPipeline(orc.CompressionZstd, 0, 1<<10, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.NewStream(nil)
	s.Write(make([]byte, 5000))
	pos := s.AppendPosition(nil)
	if err := p.Resolve(slices.Clone(pos)); err == nil {
		t.Error("Resolve before Finish succeeded")
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := p.Resolve(pos); err != nil || pos[0] == 0 || pos[0]&virtualBit != 0 {
		t.Errorf("Resolve: %v, %v", err, pos)
	}
	for _, bad := range []uint64{virtualPos(7, 0), virtualPos(0, 99)} {
		if err := p.Resolve([]uint64{bad}); err == nil {
			t.Errorf("Resolve(%x) succeeded", bad)
		}
	}
	if _, err := NewPipeline(orc.CompressionNone, 0, 1<<10, 1, nil); err == nil {
		t.Error("a pipeline for NONE")
	}
	if _, err := NewPipeline(orc.CompressionZstd, 0, 100, 1, nil); err == nil {
		t.Error("a pipeline with 100-byte blocks")
	}
}

// TestPipelineShortChunkBuffers checks that a deferred chunk much shorter
// than a block (a stream flushed at every aligned row group's end) travels
// in a buffer sized to it, not in the stream's block-sized chunk buffer:
// after many such chunks, the buffers the pool got back from the finished
// jobs hold a few KiB each, and the stream kept its own. In block-sized
// buffers, the chunks in flight would hold maxStreamJobs blocks.
func TestPipelineShortChunkBuffers(t *testing.T) {
	const block = 256 << 10
	p, err := NewPipeline(orc.CompressionZstd, 0, block, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := NewPagePool()
	s := p.NewStream(pool)
	rng := rand.New(rand.NewPCG(1, 2))
	imm := NewOutStream(orc.CompressionZstd, block, mustCompressor(t, block))
	for i := range 64 {
		b := pipelineData(rng, 1000+i*50)
		s.Write(b)
		imm.Write(b)
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		imm.Flush()
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	want := imm.Bytes()
	if !bytes.Equal(s.Bytes(), want) {
		t.Fatalf("stored %d bytes differ from the immediate stream's %d", len(s.Bytes()), len(want))
	}
	if held, most := pool.Held(), int64(maxStreamJobs+1)*(8<<10); held > most {
		t.Errorf("the pool got back %d bytes of chunk buffers, want at most %d (%d in flight of up to 8 KiB)", held, most, maxStreamJobs+1)
	}
	if cap(s.buf) != block {
		t.Errorf("the stream's chunk buffer has capacity %d, want its block of %d", cap(s.buf), block)
	}
	s.Release()
	p.Forget()
}

func mustCompressor(t *testing.T, block int) Compressor {
	t.Helper()
	c, err := NewBlockCompressor(orc.CompressionZstd, 0, block)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
