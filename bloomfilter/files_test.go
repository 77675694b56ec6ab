package bloomfilter

import (
	"bytes"
	"compress/flate"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
)

// examplesDir finds Apache ORC's example files: $ORC_EXAMPLES, or
// ../shared/orc-examples relative to the repository root.
func examplesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		return d
	}
	d := filepath.Join("..", "..", "shared", "orc-examples")
	if _, err := os.Stat(d); err != nil {
		t.Skip("ORC example files not found: set ORC_EXAMPLES or place them in ../shared/orc-examples")
	}
	return d
}

// inflateORC undoes ORC's ZLIB framing: 3-byte little-endian headers
// (length<<1 | isOriginal), each chunk raw DEFLATE or stored as is.
func inflateORC(t *testing.T, b []byte) []byte {
	t.Helper()
	var out []byte
	for len(b) > 0 {
		if len(b) < 3 {
			t.Fatalf("truncated chunk header")
		}
		h := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
		n := h >> 1
		if 3+n > len(b) {
			t.Fatalf("chunk of %d bytes overruns its stream", n)
		}
		chunk := b[3 : 3+n]
		b = b[3+n:]
		if h&1 == 1 {
			out = append(out, chunk...)
			continue
		}
		d, err := io.ReadAll(flate.NewReader(bytes.NewReader(chunk)))
		if err != nil {
			t.Fatalf("inflate: %v", err)
		}
		out = append(out, d...)
	}
	return out
}

// wangLogical is HashLong with logical right shifts: the C++ ORC
// 1.6.0..1.6.11/1.7.0 bug (ORC-1024), used to show what those files hold.
func wangLogical(v int64) uint64 {
	k := uint64(v)
	k = ^k + (k << 21)
	k ^= k >> 24
	k = k + (k << 3) + (k << 8)
	k ^= k >> 14
	k = k + (k << 2) + (k << 4)
	k ^= k >> 28
	k += k << 31
	return k
}

// TestBadBloomFilterFile decodes the BLOOM_FILTER_UTF8 streams of a C++
// 1.6.11 file (ZLIB, one stripe, columns id bigint and name string). The
// string filter shares our Murmur3 variant, so the strings known from the
// file statistics (min "Alice", max "b") test true; the long filter was
// built with the ORC-1024 logical-shift hash, so the known ids (min 0, max
// 18,000,000,000) test true only with that hash, which is why TrustFilters
// rejects the file.
func TestBadBloomFilterFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(examplesDir(t), "bad_bloom_filter_1.6.11.orc"))
	if err != nil {
		t.Skipf("bad_bloom_filter_1.6.11.orc not readable: %v", err)
	}
	psLen := int(data[len(data)-1])
	var ps orcpb.PostScript
	if err := proto.Unmarshal(data[len(data)-1-psLen:len(data)-1], &ps); err != nil {
		t.Fatal(err)
	}
	if ps.GetCompression() != orcpb.CompressionKind_ZLIB {
		t.Fatalf("expected a ZLIB file, got %v", ps.GetCompression())
	}
	footEnd := len(data) - 1 - psLen
	var footer orcpb.Footer
	if err := proto.Unmarshal(inflateORC(t, data[footEnd-int(ps.GetFooterLength()):footEnd]), &footer); err != nil {
		t.Fatal(err)
	}
	if TrustFilters(format.WriterInfoFromTail(nil, &footer)) {
		t.Errorf("TrustFilters(%d, %q) = true for a known-bad file", footer.GetWriter(), footer.GetSoftwareVersion())
	}
	st := footer.Stripes[0]
	sfStart := int(st.GetOffset() + st.GetIndexLength() + st.GetDataLength())
	var sf orcpb.StripeFooter
	if err := proto.Unmarshal(inflateORC(t, data[sfStart:sfStart+int(st.GetFooterLength())]), &sf); err != nil {
		t.Fatal(err)
	}
	filters := map[uint32]*Filter{}
	off := int(st.GetOffset())
	for _, s := range sf.Streams {
		n := int(s.GetLength())
		if s.GetKind() == orcpb.Stream_BLOOM_FILTER_UTF8 {
			var idx orcpb.BloomFilterIndex
			if err := proto.Unmarshal(inflateORC(t, data[off:off+n]), &idx); err != nil {
				t.Fatal(err)
			}
			if len(idx.BloomFilter) != 1 {
				t.Fatalf("column %d: %d filters, want one row group", s.GetColumn(), len(idx.BloomFilter))
			}
			f, err := FromProto(idx.BloomFilter[0])
			if err != nil {
				t.Fatalf("column %d: %v", s.GetColumn(), err)
			}
			filters[s.GetColumn()] = f
		}
		off += n
	}
	ids, names := filters[1], filters[2]
	if ids == nil || names == nil {
		t.Fatalf("bloom filters found for columns %v, want 1 and 2", filters)
	}
	for _, f := range filters {
		// C++ default fpp 0.05 and stride 10,000: Java sizing gives these.
		if f.NumBits() != 62400 || f.NumHashFunctions() != 4 {
			t.Errorf("filter of %d bits, k=%d; want 62400, 4", f.NumBits(), f.NumHashFunctions())
		}
	}
	for _, s := range []string{"Alice", "b"} {
		if !names.TestString(s) {
			t.Errorf("name filter does not contain %q", s)
		}
	}
	if names.TestString("not a name in this file") {
		t.Error("name filter contains an absent string (possible, but at p ~ 1e-13 it means a bug)")
	}
	for _, v := range []int64{0, 18000000000} {
		if !ids.TestHash(wangLogical(v)) {
			t.Errorf("id filter lacks %d under the ORC-1024 hash", v)
		}
		if ids.TestLong(v) {
			t.Errorf("id filter contains %d under the correct hash; expected the ORC-1024 bug", v)
		}
	}
}
