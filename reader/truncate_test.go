package reader_test

import (
	"errors"
	"testing"

	"github.com/orcgo/orc"
)

// TestEveryTruncationRefused cuts a written file at every byte: each cut
// must be refused with ErrCorrupt, never read as a shorter valid file (a
// 0-byte file is the one exception: by Hive's convention it is empty).
func TestEveryTruncationRefused(t *testing.T) {
	for _, comp := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionSnappy, orc.CompressionZstd} {
		data := manyStripesWith(t, 3000, comp)
		for cut := 1; cut < len(data); cut++ {
			err := readAll(data[:cut])
			if !errors.Is(err, orc.ErrCorrupt) {
				t.Fatalf("%s file cut at %d of %d bytes: got %v, want ErrCorrupt", comp, cut, len(data), err)
			}
		}
	}
}
