// Package rowindex is the read side of ORC row indexes: pure functions over
// stripe metadata that the reader's row-group pruning, seeking and I/O
// planning call.
//
// A stripe with row_index_stride > 0 is cut into row groups of stride rows.
// For each column, its ROW_INDEX stream holds one entry per row group: the
// positions of the column's streams at the group's first row and the group's
// statistics; its BLOOM_FILTER_UTF8 stream, when written, one bloom filter
// per group.
//
//   - Layout and Split say which numbers of an entry belong to which stream
//     (Layout's documentation gives the format).
//   - DecodeRowIndex and DecodeBloomFilterIndex parse the index streams
//     (DecodeRowIndexPositions without the statistics, for columns that are
//     only seeked; DecodeBloomBits straight into probe-ready bit sets;
//     DecodeLegacyBloomIndex the legacy BLOOM_FILTER stream in both of its
//     layouts). Which filters may be trusted, and whether an index has one
//     entry per row group, is the reader's to decide.
//   - StreamIndex reads one stream's place at every group's start and says
//     which bytes of the stream a run of groups needs (RunRange): exactly
//     the groups' bytes where the positions carry nothing over (aligned
//     groups), up to the slop past the next group's start where they do.
//     It is the one place that decides this; the reader plans its I/O with
//     it.
//
// # Errors
//
// Only an index stream that does not parse at all, and a position list that
// does not fit the column's streams, are errors (wrapping orc.ErrCorrupt),
// because seeking cannot go on without them. Places that cannot be planned
// from (that go back, or lie past the stream) are not: RunRange answers
// them with the whole stream, so that reading more is the only cost.
//
// The functions are safe for concurrent use, and so is a StreamIndex once
// made.
package rowindex
