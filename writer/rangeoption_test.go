package writer_test

import (
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestRangeOptionMessages checks the error of each integer option given a
// value out of its range: the option, the value and the range.
func TestRangeOptionMessages(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int>")
	for _, c := range []struct {
		opt  writer.Option
		want string
	}{
		{writer.WithParallelism(65), "orc: WithParallelism(65): must be 1..64"},
		{writer.WithCompressionLevel(-1), "orc: WithCompressionLevel(-1): must be 0..9"},
		{writer.WithCompressionBlockSize(1023), "orc: WithCompressionBlockSize(1023): must be 1024..8388607"},
		{writer.WithStripeSize(2<<30 + 1), "orc: WithStripeSize(2147483649): must be 65536..2147483648"},
	} {
		_, err := writer.NewWriter(io.Discard, s, c.opt)
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}
