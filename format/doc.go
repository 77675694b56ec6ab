// Package format reads and writes the bytes of ORC files: the file tail
// (postscript, footer, metadata), compression framing and codecs, and the
// stream encodings (byte and boolean RLE, integer RLE v1 and v2, varints,
// floats, decimals, timestamps). It knows nothing of files as a whole: the
// reader and writer packages put its pieces together.
//
// Decoders read from a ChunkSource, the decompressed bytes of one stream
// handed out piece by piece, through a ByteReader that keeps the hot path on
// a plain byte slice. Encoders write to a Sink. Every decoder can be Reset
// after its source was repositioned, which is how row-index seeks work: the
// stream seeks to a chunk and offset, the decoder is reset, then skips the
// values the position says were already buffered in the run.
package format
