package rowindex

// Decoding the index streams of a stripe, after decompression (the file's
// codec frames them in chunks like any other stream):
//
//	ROW_INDEX (6)          RowIndex         {1: repeated RowIndexEntry}
//	                       RowIndexEntry    {1: positions packed uint64,
//	                                         2: statistics ColumnStatistics}
//	BLOOM_FILTER_UTF8 (8)  BloomFilterIndex {1: repeated BloomFilter}
//	BLOOM_FILTER (7)       (same message; legacy, not used for pruning)
//	                       BloomFilter      {1: num_hash_functions uint32,
//	                                         2: bitset repeated fixed64,
//	                                         3: utf8bitset bytes}
//
// One entry and one filter per row group, in row-group order.

import (
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// DecodeRowIndex parses the decompressed bytes of a ROW_INDEX stream. Bytes
// that do not parse give an error wrapping orc.ErrCorrupt. Entry counts and
// position counts are checked by Index and Split, which know what to expect.
func DecodeRowIndex(data []byte) (*orcpb.RowIndex, error) {
	ri := &orcpb.RowIndex{}
	if err := proto.Unmarshal(data, ri); err != nil {
		return nil, &orc.CorruptError{Offset: -1, Stripe: -1, Column: -1, Stream: "ROW_INDEX",
			Msg: "row index does not parse", Err: err}
	}
	return ri, nil
}

// DecodeBloomFilterIndex parses the decompressed bytes of a BLOOM_FILTER_UTF8
// (or legacy BLOOM_FILTER) stream. Bytes that do not parse give an error
// wrapping orc.ErrCorrupt. The filters themselves are checked when used
// (Index.Bloom, bloomfilter.FromProto).
func DecodeBloomFilterIndex(data []byte) (*orcpb.BloomFilterIndex, error) {
	bi := &orcpb.BloomFilterIndex{}
	if err := proto.Unmarshal(data, bi); err != nil {
		return nil, &orc.CorruptError{Offset: -1, Stripe: -1, Column: -1, Stream: "BLOOM_FILTER_UTF8",
			Msg: "bloom filter index does not parse", Err: err}
	}
	return bi, nil
}
