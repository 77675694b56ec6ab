package reader

// StreamDetail describes one stream of a stripe.
type StreamDetail struct {
	Kind   string // PRESENT, DATA, LENGTH, ROW_INDEX, ...
	Column int
	Offset int64 // absolute file offset
	Length int64
}

// EncodingDetail is a column's encoding in a stripe.
type EncodingDetail struct {
	Kind           string // DIRECT, DICTIONARY, DIRECT_V2, DICTIONARY_V2
	DictionarySize int
	BloomEncoding  int
}

// StripeDetail is a stripe's footer in readable form.
type StripeDetail struct {
	StripeInfo
	Streams        []StreamDetail
	Encodings      []EncodingDetail // by column id
	WriterTimezone string
}

// StripeDetail reads stripe i's footer.
func (r *Reader) StripeDetail(i int) (*StripeDetail, error) {
	if i < 0 || i >= len(r.tail.Footer.GetStripes()) {
		return nil, errStripeRange(i, len(r.tail.Footer.GetStripes()))
	}
	m, err := r.readStripeMeta(r.r, i)
	if err != nil {
		return nil, err
	}
	d := &StripeDetail{StripeInfo: m.info, WriterTimezone: m.footer.GetWriterTimezone()}
	for _, s := range m.footer.GetStreams() {
		loc := m.streams[streamKey{int(s.GetColumn()), s.GetKind()}]
		d.Streams = append(d.Streams, StreamDetail{Kind: s.GetKind().String(), Column: int(s.GetColumn()),
			Offset: loc.offset, Length: int64(s.GetLength())})
	}
	for _, e := range m.encodings {
		d.Encodings = append(d.Encodings, EncodingDetail{Kind: e.GetKind().String(),
			DictionarySize: int(e.GetDictionarySize()), BloomEncoding: int(e.GetBloomEncoding())})
	}
	return d, nil
}
