package rowindex

// The slop: how far past the next row group's position a run of row
// groups may need a stream when the position shows values carried over.
//
// A run of row groups a..b-1 needs the stream from group a's position up to
// where the values of group b-1 end. Group b's position marks that end only
// when nothing is carried over (stream.go); otherwise it names the start of
// the run that holds group b's first value, and the values buffered in front
// of it, which belong to group b-1 and earlier, are in that same run (or,
// below, the one after it). StreamIndex.RunRange then reads at most
//
//	[start of group a, start of group b + slop)     clamped to the stream
//	[start of group a, end of stream)               when no group b follows
//
// # The slop
//
// Uncompressed, the slop is the most bytes from a position to the end of
// the values buffered at it, maxBufferedBytes = 4378:
//
//	raw bytes (float/double, string/binary DATA, decimal DATA varints): 0;
//	    the position is the exact byte offset, nothing is buffered.
//	byte RLE: one literal group 1 + 128 = 129 bytes, plus for boolean RLE
//	    the control byte and first byte of the next group, which holds the
//	    partly used byte (bits > 0): 131.
//	integer RLE v1: one literal group of 128 varints of up to 10 bytes,
//	    1 + 1280 = 1281, plus the run group it may be cut into: 12.
//	integer RLE v2 (the largest): a writer buffers at most 511 values
//	    before one run; the runs the decoder accepts are at most
//	      DIRECT        2 + 512*8                         = 4098
//	      DELTA         2 + 10 + 10 + 510*8               = 4102
//	      PATCHED_BASE  4 + 8 + 512*8 + 31 entries * 8    = 4356
//	    (W and the patch entry width both 64 bits, as the decoder allows),
//	    and Java's writer and ours may cut the buffered values into one
//	    such run followed by a run of equal values (when a repeat appears
//	    after the position), at most a DELTA of width 0: 2 + 10 + 10 = 22.
//	    4356 + 22 = 4378.
//
// Java's 2 + 8*512 = 4098 covers a DIRECT run of 64-bit values but neither
// a 64-bit DELTA nor the trailing repeat run; the 280 extra bytes cost
// nothing measurable.
//
// Compressed, group b's position is (chunk offset c, offset u in the
// decompressed chunk). The reader needs chunk c whole (InStream decompresses
// whole chunks) and the chunks after it until S = maxBufferedBytes
// decompressed bytes past u are in. u can equal the block size (the writer's
// buffer was exactly full), so in the worst case chunk c contributes nothing
// and ceil(S/blockSize) more chunks are needed, each at most blockSize + 3
// bytes on disk (chunk lengths above the block size are corrupt):
//
//	slop = (1 + ceil(S/blockSize)) * (blockSize + 3),  S = 4378
//
// RunRange counts the chunks from u and the bytes actually carried (S when
// values are, the 2 bytes of a split boolean byte when only bits are), so
// it needs ceil((u + carried)/blockSize) chunks from chunk c, and no more
// than the worst case above; every group start being a chunk start, the
// k-th distinct group start after c also ends k chunks.
//
// Java uses (2 + (512*8-1)/blockSize) * (blockSize + 3), the same with
// S = 4096, which is short even of a plain 4098-byte DIRECT run when u is
// near the block size and the block size is small (the tests meet it with
// 16-byte blocks and with 4096-byte ones). Either bound assumes, as Java
// and C++ ORC and our writer do, that every chunk but a stream's last
// decompresses to exactly the block size: a writer that emits short chunks
// in mid-stream can put any number of chunks within the slop, and no bound
// from metadata alone exists then. A reader should then read on past the
// planned range (format.Loader) rather than fail.

// Range is a byte range [Start, End) within a stream.
type Range struct{ Start, End uint64 }

// maxBufferedBytes is the most bytes a stream needs past a row-index position
// to finish the values buffered at it (see the file comment).
const maxBufferedBytes = 4356 + 22

// chunkHeaderSize is the 3-byte header in front of each compressed chunk.
const chunkHeaderSize = 3
