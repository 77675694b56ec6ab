package writer

import (
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// What every column writer does with its streams, from the list of them
// it gives (columnWriter.ownStream): ending runs and chunks at row
// groups, flushing at the stripe's end, listing the streams, starting the
// next stripe's, estimating what they hold, and telling entry positions
// which stream is which. Writers keep only what differs: how values are
// written, and their encoding. The string writer, whose dictionary decides
// its streams at the stripe's end, keeps methods of its own.

// encStream is one of a column's streams (besides PRESENT) and the
// encoder writing to it.
type encStream struct {
	kind orcpb.Stream_Kind
	// weight is the bytes estimate counts for each value enc holds
	// (0: not counted). An int32 beside kind: 32 bytes an encStream.
	weight int32
	out    **format.OutStream // the writer's field, replaced every stripe
	enc    runEncoder         // nil for bytes written as they are
}

// runEncoder is an encoder of values into runs: byte, boolean and
// integer RLE.
type runEncoder interface {
	Flush() error
	Reset(out format.Sink)
}

// streamAt gives the stream of the given kind and its encoder (see
// streamer); nil for a kind the column does not have. A stream not made
// yet (lazySink) is the writer's empty one, whose position is that of a
// stream without bytes.
func (b *colBase) streamAt(kind orcpb.Stream_Kind) (*format.OutStream, any) {
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		if s.kind == kind {
			if *s.out == nil {
				return b.w.empty, s.enc
			}
			return *s.out, s.enc
		}
	}
	return nil, nil
}

// lazySink is the only stream of a column writer with one as the
// Sink its encoder writes to: the stream is made at its first byte. A
// writer of a wide schema has a column of one stream each, whose values
// its encoder holds until the stripe ends, when the serial writer writes
// each column's stream as it finishes it (writeDataArea) and then lets
// it go (forgetStreams): of streams of 96 bytes each, Write and Close
// then hold one at a time rather than one a column. Streams a Pipeline
// compresses are made with the column, their positions being the
// pipeline's (lazyStreams).
type lazySink colBase

// Write writes p to the stream, making it first if need be.
func (s *lazySink) Write(p []byte) (int, error) { return (*colBase)(s).firstOut().Write(p) }

// WriteByte writes c to the stream, making it first if need be.
func (s *lazySink) WriteByte(c byte) error { return (*colBase)(s).firstOut().WriteByte(c) }

// firstOut returns the column's first stream, making it if need be.
func (b *colBase) firstOut() *format.OutStream {
	s, _ := b.column().ownStream(0)
	out := s.out
	if *out == nil {
		if sp := b.w.spare; sp != nil {
			// A written column's, emptied (Writer.dropWritten).
			*out, b.w.spare = sp, nil
		} else {
			*out = b.newStream()
		}
	}
	return *out
}

// lazyStreams reports whether the column's stream is made at its first
// byte (lazySink): it has one, and no pipeline compresses it.
func (b *colBase) lazyStreams() bool {
	_, one := b.column().ownStream(0)
	_, two := b.column().ownStream(1)
	return one && !two && b.w.pipe == nil
}

// column returns the column writer b is the base of (for ownStream).
func (b *colBase) column() columnWriter { return b.w.cols[b.node.ID()] }

// ownStream returns no stream: a column writer with streams besides
// PRESENT gives them (see columnWriter).
func (b *colBase) ownStream(int) (encStream, bool) { return encStream{}, false }

// forgetStreams lets go of a written stripe's streams made at their first
// byte; the next stripe makes its own (resetStripe).
func (b *colBase) forgetStreams() {
	if b.lazyStreams() {
		s, _ := b.column().ownStream(0)
		*s.out = nil
	}
}

// appendPositions appends the column's entry (see columnWriter).
func (b *colBase) appendPositions(dst []uint64) []uint64 { return b.positions(dst, b) }

// endRuns ends PRESENT's runs and chunk, each encoder's run (a boolean
// encoder's byte run, with the bits of a partial byte kept) and then each
// stream's chunk.
func (b *colBase) endRuns() error {
	if err := b.endPresentRuns(); err != nil {
		return err
	}
	return b.flushOwn(true)
}

// finishStripe flushes PRESENT, then every encoder, then every stream.
func (b *colBase) finishStripe() error {
	if err := b.finishPresent(); err != nil {
		return err
	}
	return b.flushOwn(false)
}

// flushOwn flushes each encoder (with runsOnly, a boolean encoder only
// its byte runs, FlushBytes), then ends each stream's chunk; at the
// stripe's end (not runsOnly) the streams are finished (OutStream.Finish),
// but for one a serial writer writes at once and keeps (Writer.dropWritten),
// whose chunk buffer it keeps too.
func (b *colBase) flushOwn(runsOnly bool) error {
	keepBuf := !runsOnly && b.w.par == nil && b.lazyStreams()
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		if s.enc == nil {
			continue
		}
		flush := s.enc.Flush
		if bools, ok := s.enc.(*format.BoolRLEEncoder); ok && runsOnly {
			flush = bools.FlushBytes
		}
		if err := flush(); err != nil {
			return err
		}
	}
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		if *s.out == nil {
			continue // no byte yet (lazySink)
		}
		var err error
		if runsOnly || keepBuf {
			err = (*s.out).Flush()
		} else {
			err = (*s.out).Finish()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// appendDataStreams appends PRESENT (when the stripe has nulls), then
// the column's streams in order; a stream without a byte may be nil
// (lazySink).
func (b *colBase) appendDataStreams(dst []stream) []stream {
	out := b.appendPresentStream(dst)
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		out = append(out, stream{s.kind, *s.out})
	}
	return out
}

// resetStripe gives every stream a new one for the next stripe (see
// holding.addStream), or none until its first byte (lazyStreams), and
// points its encoder at it.
func (b *colBase) resetStripe() {
	b.resetBase()
	if b.lazyStreams() {
		s, _ := b.column().ownStream(0)
		*s.out = nil
		if s.enc != nil {
			s.enc.Reset((*lazySink)(b))
		}
		return
	}
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		*s.out = b.newStream()
		if s.enc != nil {
			s.enc.Reset(*s.out)
		}
	}
}

// estimate adds the column's streams and the values its encoders hold,
// at their weight.
func (b *colBase) estimate(h *holding) {
	b.held(h)
	for i := 0; ; i++ {
		s, ok := b.column().ownStream(i)
		if !ok {
			break
		}
		if *s.out != nil {
			h.addStream(*s.out)
		}
		if s.weight > 0 {
			h.data += int64(s.enc.(runHolder).Buffered()) * int64(s.weight)
		}
	}
}
