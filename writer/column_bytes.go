package writer

import (
	"bytes"
	"sort"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// bytesWriter writes STRING, VARCHAR, CHAR and BINARY.
//
// Text columns start each stripe buffering values in a dictionary. At the
// end of the first row group (or of the stripe, if it is shorter) the writer
// compares the number of distinct values with the number of values: at or
// below the key ratio the stripe is DICTIONARY_V2 (dictionary sorted by
// UTF-8 bytes, ids remapped at the stripe's end), above it the buffered
// values are replayed as DIRECT_V2 and the rest written directly. Binary
// columns are always DIRECT_V2.
//
// While the stripe is open the key ids of its values (in order of first
// appearance) are kept bit-packed at the width of the largest (idBuffer),
// not as an []int32: low-cardinality columns then cost a few bits per value
// instead of four bytes, which keeps the writer's memory near the stripe
// size. At the stripe's end they are read back, remapped to the sorted
// order and written.
type bytesWriter struct {
	colBase
	mode int // modeUndecided, modeDict or modeDirect

	dataOut, lengthOut, dictOut *format.OutStream
	lengths                     *format.IntRLEv2Encoder
	ids                         *format.IntRLEv2Encoder // dictionary DATA

	dict *dictionary // the stripe's distinct values, until the encoding is direct
	// directAt is the number of distinct values past which the stripe's
	// first row group is direct whatever else it holds: its non-null
	// values are at most the stride, so more than dictRatio x stride
	// distinct ones fail the key ratio at its end. The encoding is then
	// chosen at once, with the same result (and bytes) as at the group's
	// end, and the rest of the group is not added to a dictionary for
	// nothing. 0 (no row index; text under a list or map) chooses at the
	// group's end only.
	directAt  float64
	idBuf     idBuffer // key id of every non-null value in the stripe
	nvalues   int      // ids in idBuf
	idScratch []int64
	lenBatch  []int64  // direct values' lengths in write, for one WriteValues
	marks     []int    // nvalues at the start of each row group not yet positioned
	markGroup []int    // entry index of each mark
	dictSize  int      // keys in the finished stripe's dictionary
	keyCount  []uint64 // by key id, values of the key in this write not yet in the statistics
	touched   []int32  // the ids with a count
	scratch   []byte
}

const (
	modeUndecided = iota
	modeDict
	modeDirect
)

func (w *Writer) newBytesWriter(node *orc.Schema) *bytesWriter {
	c := &bytesWriter{colBase: w.newBase(node), dataOut: w.newStream(), lengthOut: w.newStream(), dictOut: w.newStream()}
	w.textCols++
	c.lengths = format.NewIntRLEv2Encoder(c.lengthOut, false)
	c.ids = format.NewIntRLEv2Encoder(c.dataOut, false)
	if w.cfg.stride > 0 {
		c.directAt = w.cfg.dictRatio * float64(w.cfg.stride)
	}
	c.resetMode()
	return c
}

func (c *bytesWriter) resetMode() {
	c.mode = modeUndecided
	if c.node.Kind == orc.Binary || c.node.Kind.IsGeospatial() || c.w.cfg.dictRatio == 0 {
		c.mode = modeDirect
	}
	if c.dict == nil {
		c.dict = newDictionary()
	} else {
		c.dict.reset()
	}
	c.resetIDs()
	c.marks = c.marks[:0]
	c.markGroup = c.markGroup[:0]
}

// fit applies char padding and varchar truncation.
func (c *bytesWriter) fit(b []byte) []byte {
	switch c.node.Kind {
	case orc.Char, orc.Varchar:
		n := c.node.MaxLength
		chars := 0
		for i := range string(b) {
			if chars == n {
				return b[:i]
			}
			chars++
		}
		if c.node.Kind == orc.Char && chars < n {
			c.scratch = append(append(c.scratch[:0], b...), bytes.Repeat([]byte{' '}, n-chars)...)
			return c.scratch
		}
	}
	return b
}

// resetIDs empties the buffered ids.
func (c *bytesWriter) resetIDs() {
	c.idBuf.reset()
	c.nvalues = 0
}

// replayIDs decodes the buffered ids in order, calling fn with each run of
// them and the index of the first; it then empties the buffer.
func (c *bytesWriter) replayIDs(fn func(first int, ids []int64) error) error {
	c.idScratch = grow(c.idScratch, min(c.nvalues, 1024)) // a column of few values takes few
	for first := 0; first < c.nvalues; {
		ids := c.idScratch[:min(len(c.idScratch), c.nvalues-first)]
		c.idBuf.read(first, ids)
		if err := fn(first, ids); err != nil {
			return err
		}
		first += len(ids)
	}
	c.resetIDs()
	return nil
}

func (c *bytesWriter) write(v orc.Vector, start, end int, parentNulls []bool) error {
	bf := c.bloomFilter()
	vec := v.(*orc.BytesVector)
	if c.mode == modeUndecided && hasLongValue(vec.Offsets, start, end) {
		// Before the values' nulls and statistics: the buffered ids go
		// out as direct values, and then this write's.
		if err := c.replayDirect(); err != nil {
			return err
		}
	}
	nulls, _ := c.writeNulls(vec.Nulls.Nulls, start, end, parentNulls)
	fits := c.node.Kind == orc.Char || c.node.Kind == orc.Varchar
	if nulls == nil && !fits {
		if c.mode == modeDirect {
			return c.writeDirectRun(vec, start, end)
		}
		return c.writeDictRun(vec, start, end)
	}
	ids := c.idScratch[:0]
	lens := c.lenBatch[:0]
	for i := start; i < end; i++ {
		if nulls != nil && nulls[i-start] {
			continue
		}
		// Capped at the data's length: the dictionary reads a short key
		// as a word, and the bytes past the data may not be the writer's
		// to read.
		b := vec.Data[vec.Offsets[i]:vec.Offsets[i+1]:len(vec.Data)]
		if fits {
			b = c.fit(b)
		}
		if c.mode == modeDirect {
			// writeDirect, with the lengths written after the loop:
			// nothing positions LENGTH until write returns (a mode
			// switch below happens before any direct value).
			c.group.AddBytes(b)
			if bf != nil {
				bf.AddBytes(b)
			}
			if _, err := c.dataOut.Write(b); err != nil {
				return err
			}
			lens = append(lens, int64(len(b)))
			continue
		}
		id, added := c.dict.add(b)
		ids = append(ids, int64(id))
		c.countKey(id)
		if added && c.directNow() {
			if err := c.goDirect(ids); err != nil {
				return err
			}
			ids = c.idScratch[:0]
		}
	}
	c.addKeyStats()
	c.lenBatch = lens
	if err := c.lengths.WriteValues(lens); err != nil {
		return err
	}
	return c.bufferIDs(ids)
}

// writeDirectRun is write for a direct column's run of values with no
// nulls and nothing to pad or truncate: the values are the vector's bytes
// from the first one's offset to the last one's end, written at once.
func (c *bytesWriter) writeDirectRun(vec *orc.BytesVector, start, end int) error {
	bf := c.bloomFilter()
	offs := vec.Offsets[start : end+1]
	c.group.AddByteRows(vec.Data, offs, nil)
	if bf != nil {
		for i := range len(offs) - 1 {
			bf.AddBytes(vec.Data[offs[i]:offs[i+1]])
		}
	}
	lens := c.lenBatch[:0]
	for i := range len(offs) - 1 {
		lens = append(lens, int64(offs[i+1]-offs[i]))
	}
	c.lenBatch = lens
	if _, err := c.dataOut.Write(vec.Data[offs[0]:offs[len(offs)-1]]); err != nil {
		return err
	}
	return c.lengths.WriteValues(lens)
}

// writeDictRun is write for a run of values with no nulls and nothing to
// pad or truncate while the column is undecided or a dictionary: each
// value's key id, counted for the statistics, and the rest of the run
// direct once the first row group turns out direct.
func (c *bytesWriter) writeDictRun(vec *orc.BytesVector, start, end int) error {
	offs := vec.Offsets[start : end+1]
	data := vec.Data
	d := c.dict
	ids := c.idScratch[:0]
	for i := range len(offs) - 1 {
		id, added := d.add(data[offs[i]:offs[i+1]:len(data)]) // capped as in write
		ids = append(ids, int64(id))
		c.countKey(id)
		if added && c.directNow() {
			// The run's other values go direct too.
			if err := c.goDirect(ids); err != nil {
				return err
			}
			if start+i+1 < end {
				return c.writeDirectRun(vec, start+i+1, end)
			}
			return nil
		}
	}
	c.addKeyStats()
	return c.bufferIDs(ids)
}

// directNow reports whether the stripe's first row group, still
// undecided, has more distinct values than the key ratio allows it
// whatever its other values: it will come out direct.
func (c *bytesWriter) directNow() bool {
	return c.directAt > 0 && float64(c.dict.len()) > c.directAt && c.mode == modeUndecided
}

// goDirect stops building the dictionary when directNow: the counted
// values go to the statistics and ids, the buffered ids are replayed as
// direct values, and the column writes direct from here.
func (c *bytesWriter) goDirect(ids []int64) error {
	c.addKeyStats()
	if err := c.bufferIDs(ids); err != nil {
		return err
	}
	return c.decide()
}

// countKey counts a value of key id towards the statistics, which
// addKeyStats adds a key at a time.
func (c *bytesWriter) countKey(id int32) {
	if int(id) >= len(c.keyCount) {
		c.keyCount = append(c.keyCount, make([]uint64, int(id)+1-len(c.keyCount))...)
	}
	if c.keyCount[id] == 0 {
		c.touched = append(c.touched, id)
	}
	c.keyCount[id]++
}

// addKeyStats adds the counted values to the row group's statistics and
// bloom filter, once for each key (a bloom filter holds a key once however
// often it is added), and clears the counts. write calls it before it
// returns, so the counts never span row groups, and before the dictionary
// may go.
func (c *bytesWriter) addKeyStats() {
	bf := c.bloomFilter()
	for _, id := range c.touched {
		k := c.dict.key(id)
		c.group.AddBytesRepeat(k, c.keyCount[id])
		if bf != nil {
			bf.AddBytes(k)
		}
		c.keyCount[id] = 0
	}
	c.touched = c.touched[:0]
}

// bufferIDs appends ids to the stripe's buffered key ids.
func (c *bytesWriter) bufferIDs(ids []int64) error {
	c.idScratch = ids
	if len(ids) == 0 {
		return nil // direct: no dictionary
	}
	c.nvalues += len(ids)
	c.idBuf.add(ids, c.dict.len())
	return nil
}

func (c *bytesWriter) writeDirect(b []byte) error {
	if _, err := c.dataOut.Write(b); err != nil {
		return err
	}
	return c.lengths.Write(int64(len(b)))
}

func (c *bytesWriter) appendPositions(dst []uint64) []uint64 {
	dst = c.presentPositions(dst)
	if c.mode == modeDirect {
		return c.directPositions(dst)
	}
	// Positioned once the stripe's encoding is known.
	c.marks = append(c.marks, c.nvalues)
	c.markGroup = append(c.markGroup, c.numEntries()-1)
	return dst
}

func (c *bytesWriter) directPositions(dst []uint64) []uint64 {
	return appendStreams(dst, format.PositionedStreams(c.node.Kind, false, false), c)
}

// streamAt gives DATA with the dictionary ids' encoder, which only a
// dictionary's entries use (directly, DATA is bytes), and LENGTH.
func (c *bytesWriter) streamAt(kind orcpb.Stream_Kind) (*format.OutStream, any) {
	if kind == orcpb.Stream_LENGTH {
		return c.lengthOut, c.lengths
	}
	return c.dataOut, c.ids
}

// endRuns ends the direct streams' runs and chunks; dictionary ids are
// aligned when they are written at the stripe's end (writeDictionary), and
// ids buffered while the encoding is undecided when they are replayed.
func (c *bytesWriter) endRuns() error {
	if err := c.endPresentRuns(); err != nil {
		return err
	}
	if c.mode != modeDirect {
		return nil
	}
	return c.endDirectRuns()
}

func (c *bytesWriter) endDirectRuns() error {
	return flushAll([]format.IntEncoder{c.lengths}, c.dataOut, c.lengthOut)
}

// groupEnd decides the encoding after the stripe's first row group.
func (c *bytesWriter) groupEnd() error {
	if c.mode == modeUndecided {
		return c.decide()
	}
	return nil
}

func (c *bytesWriter) decide() error {
	distinct := c.dict.len()
	if c.nvalues > 0 && float64(distinct) <= c.w.cfg.dictRatio*float64(c.nvalues) {
		c.mode = modeDict
		return nil
	}
	return c.replayDirect()
}

// maxDictValue is the longest value an undecided stripe puts in its
// dictionary: a longer one makes the stripe direct at once (spec.md 3.3),
// so that it is not copied into the dictionary as well as into the
// stream (a CSV row with one 50 MB field held it three times).
const maxDictValue = 1 << 20

// hasLongValue reports whether a value of rows start..end-1 is longer
// than maxDictValue.
func hasLongValue(offsets []int, start, end int) bool {
	for i := start; i < end; i++ {
		if offsets[i+1]-offsets[i] > maxDictValue {
			return true
		}
	}
	return false
}

// replayDirect makes the stripe direct: the buffered values are replayed
// as direct values, positioning the groups seen so far.
func (c *bytesWriter) replayDirect() error {
	c.mode = modeDirect
	m := 0
	err := c.replayIDs(func(first int, ids []int64) error {
		for j, id := range ids {
			for m < len(c.marks) && c.marks[m] == first+j {
				if err := c.positionAligned(m, c.endDirectRuns, c.directPositions); err != nil {
					return err
				}
				m++
			}
			if err := c.writeDirect(c.dict.key(int32(id))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for ; m < len(c.marks); m++ {
		if err := c.positionAligned(m, c.endDirectRuns, c.directPositions); err != nil {
			return err
		}
	}
	c.marks = c.marks[:0]
	c.markGroup = c.markGroup[:0]
	// The dictionary is no longer needed this stripe. Its arrays are
	// kept, emptied, for the next stripe's first row group, which would
	// grow them again (a stripe's garbage otherwise: 3 MB a stripe of the
	// bench's lineitem, from l_comment and l_uuid), as long as all the
	// text columns' together could take no more than a 16th of the stripe
	// size; estimate counts what they hold.
	if c.dict.capacityBytes() > c.w.cfg.stripeSize/(16*int64(c.w.textCols)) {
		c.dict = nil
	} else {
		c.dict.reset()
	}
	return nil
}

// positionAligned completes the entry of mark m with the data positions
// fn appends, first ending the streams' runs and chunks with end when row
// groups are aligned.
func (c *bytesWriter) positionAligned(m int, end func() error, fn func([]uint64) []uint64) error {
	if c.w.cfg.aligned {
		if err := end(); err != nil {
			return err
		}
	}
	e := c.entry(c.markGroup[m])
	c.changePos(e, func(dst []uint64) []uint64 {
		return fn(append(dst, c.entryPos(e)...))
	})
	return nil
}

func (c *bytesWriter) finishStripe() error {
	if err := c.finishPresent(); err != nil {
		return err
	}
	if c.mode == modeUndecided {
		if err := c.decide(); err != nil {
			return err
		}
	}
	if c.mode == modeDict {
		if err := c.writeDictionary(); err != nil {
			return err
		}
	}
	if err := c.lengths.Flush(); err != nil {
		return err
	}
	if err := c.ids.Flush(); err != nil {
		return err
	}
	for _, s := range []*format.OutStream{c.dataOut, c.lengthOut, c.dictOut} {
		if err := s.Finish(); err != nil {
			return err
		}
	}
	return nil
}

// writeDictionary sorts the keys and writes DICTIONARY_DATA, LENGTH and the
// remapped ids, completing the row index positions.
func (c *bytesWriter) writeDictionary() error {
	d := c.dict
	n := d.len()
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool { return bytes.Compare(d.key(order[a]), d.key(order[b])) < 0 })
	remap := make([]int32, n)
	for newID, old := range order {
		remap[old] = int32(newID)
		k := d.key(old)
		if _, err := c.dictOut.Write(k); err != nil {
			return err
		}
		if err := c.lengths.Write(int64(len(k))); err != nil {
			return err
		}
	}
	c.dictSize = n
	idPositions := func(dst []uint64) []uint64 {
		return appendStreams(dst, format.PositionedStreams(c.node.Kind, true, false), c)
	}
	endIDRuns := func() error { return flushAll([]format.IntEncoder{c.ids}, c.dataOut) }
	m := 0
	err := c.replayIDs(func(first int, ids []int64) error {
		for j, id := range ids {
			ids[j] = int64(remap[id])
		}
		// The ids between two row groups' starts go to the encoder at
		// once.
		for j := 0; j < len(ids); {
			for m < len(c.marks) && c.marks[m] == first+j {
				if err := c.positionAligned(m, endIDRuns, idPositions); err != nil {
					return err
				}
				m++
			}
			end := len(ids)
			if m < len(c.marks) && c.marks[m]-first < end {
				end = c.marks[m] - first
			}
			if err := c.ids.WriteValues(ids[j:end]); err != nil {
				return err
			}
			j = end
		}
		return nil
	})
	if err != nil {
		return err
	}
	for ; m < len(c.marks); m++ {
		if err := c.positionAligned(m, endIDRuns, idPositions); err != nil {
			return err
		}
	}
	return nil
}

func (c *bytesWriter) appendDataStreams(dst []stream) []stream {
	s := c.appendPresentStream(dst)
	if c.mode == modeDict {
		return append(s, stream{orcpb.Stream_DATA, c.dataOut}, stream{orcpb.Stream_LENGTH, c.lengthOut},
			stream{orcpb.Stream_DICTIONARY_DATA, c.dictOut})
	}
	return append(s, stream{orcpb.Stream_DATA, c.dataOut}, stream{orcpb.Stream_LENGTH, c.lengthOut})
}

func (c *bytesWriter) encoding() *orcpb.ColumnEncoding {
	if c.mode == modeDict {
		return &orcpb.ColumnEncoding{Kind: orcpb.ColumnEncoding_DICTIONARY_V2.Enum(), DictionarySize: proto.Uint32(uint32(c.dictSize))}
	}
	return directV2()
}

func (c *bytesWriter) resetStripe() {
	c.resetBase()
	c.dataOut, c.lengthOut, c.dictOut = c.newStream(), c.newStream(), c.newStream()
	c.lengths.Reset(c.lengthOut)
	c.ids.Reset(c.dataOut)
	c.resetMode()
}

// Dictionary memory as estimate counts it: twice the key bytes, 8 per
// offset and dictEntryBytes per key. The dictionary holds less (the key
// bytes once, then 8 for the offset, 4 for the hash and 8 of table slots per
// key); the figures are those of the map[string]int32 it replaced (whose
// entries cost 59 to 78 bytes with 18-byte keys, measured with Go 1.26), kept
// so that stripes are cut where they were and files stay byte for byte the
// same. The estimate stays an upper bound.
const dictEntryBytes = 48

func (c *bytesWriter) estimate(h *holding) {
	c.held(h, c.dataOut, c.lengthOut, c.dictOut)
	h.data += int64(c.lengths.Buffered()) * 2
	if c.mode != modeDirect {
		// The dictionary (see dictEntryBytes), no less than the arrays it
		// kept from the last stripe, and the ids as RLE v2 (bytes written
		// and values still in the encoder).
		var dict int64
		if d := c.dict; d != nil {
			dict = 2*int64(len(d.data)) + 8*int64(len(d.offsets)) + dictEntryBytes*int64(d.len())
			dict = max(dict, d.capacityBytes())
		}
		h.data += dict +
			c.idBuf.bytes()
	} else if c.dict != nil {
		h.data += c.dict.capacityBytes() // kept for the next stripe (decide)
	}
}
