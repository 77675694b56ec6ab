package rowindex

import (
	"errors"
	"slices"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

const (
	present   = orcpb.Stream_PRESENT
	data      = orcpb.Stream_DATA
	length    = orcpb.Stream_LENGTH
	secondary = orcpb.Stream_SECONDARY
)

var (
	direct   = orcpb.ColumnEncoding_DIRECT
	directV2 = orcpb.ColumnEncoding_DIRECT_V2
	dict     = orcpb.ColumnEncoding_DICTIONARY
	dictV2   = orcpb.ColumnEncoding_DICTIONARY_V2
	allEncs  = []orcpb.ColumnEncoding_Kind{direct, directV2, dict, dictV2}
)

// Uncompressed layouts without PRESENT, from the ORC checklist 3.2; the
// compressed ones add one number per stream, PRESENT (3/4) goes first.
func TestLayout(t *testing.T) {
	tests := []struct {
		kind      orc.Kind
		encs      []orcpb.ColumnEncoding_Kind
		decimal64 bool
		want      []Slot
	}{
		{orc.Boolean, allEncs, false, []Slot{{data, 3}}},
		{orc.Byte, allEncs, false, []Slot{{data, 2}}},
		{orc.Short, allEncs, false, []Slot{{data, 2}}},
		{orc.Int, allEncs, false, []Slot{{data, 2}}},
		{orc.Long, allEncs, false, []Slot{{data, 2}}},
		{orc.Date, allEncs, false, []Slot{{data, 2}}},
		{orc.Float, allEncs, false, []Slot{{data, 1}}},
		{orc.Double, allEncs, false, []Slot{{data, 1}}},
		{orc.String, []orcpb.ColumnEncoding_Kind{direct, directV2}, false, []Slot{{data, 1}, {length, 2}}},
		{orc.String, []orcpb.ColumnEncoding_Kind{dict, dictV2}, false, []Slot{{data, 2}}},
		{orc.Char, []orcpb.ColumnEncoding_Kind{direct, directV2}, false, []Slot{{data, 1}, {length, 2}}},
		{orc.Char, []orcpb.ColumnEncoding_Kind{dict, dictV2}, false, []Slot{{data, 2}}},
		{orc.Varchar, []orcpb.ColumnEncoding_Kind{direct, directV2}, false, []Slot{{data, 1}, {length, 2}}},
		{orc.Varchar, []orcpb.ColumnEncoding_Kind{dict, dictV2}, false, []Slot{{data, 2}}},
		{orc.Binary, allEncs, false, []Slot{{data, 1}, {length, 2}}},
		{orc.Decimal, allEncs, false, []Slot{{data, 1}, {secondary, 2}}},
		{orc.Decimal, allEncs, true, []Slot{{data, 2}}},
		{orc.Timestamp, allEncs, false, []Slot{{data, 2}, {secondary, 2}}},
		{orc.TimestampInstant, allEncs, false, []Slot{{data, 2}, {secondary, 2}}},
		{orc.Struct, allEncs, false, nil},
		{orc.List, allEncs, false, []Slot{{length, 2}}},
		{orc.Map, allEncs, false, []Slot{{length, 2}}},
		{orc.Union, allEncs, false, []Slot{{data, 2}}},
	}
	for _, tt := range tests {
		for _, enc := range tt.encs {
			for _, hasPresent := range []bool{false, true} {
				for _, compressed := range []bool{false, true} {
					var want []Slot
					extra := 0
					if compressed {
						extra = 1
					}
					if hasPresent {
						want = append(want, Slot{present, 3 + extra})
					}
					for _, s := range tt.want {
						want = append(want, Slot{s.Kind, s.Count + extra})
					}
					got := Layout(&orc.Schema{Kind: tt.kind}, enc, hasPresent, compressed, tt.decimal64)
					if !slices.Equal(got, want) {
						t.Errorf("Layout(%v, %v, present %v, compressed %v, decimal64 %v) = %v, want %v",
							tt.kind, enc, hasPresent, compressed, tt.decimal64, got, want)
					}
				}
			}
		}
	}
	// decimal64 matters only for decimals.
	if got := Layout(&orc.Schema{Kind: orc.Int}, directV2, false, false, true); !slices.Equal(got, []Slot{{data, 2}}) {
		t.Errorf("int with decimal64 set: %v", got)
	}
	if got := Layout(nil, direct, true, true, false); !slices.Equal(got, []Slot{{present, 4}}) {
		t.Errorf("nil type: %v", got)
	}
}

func TestWidth(t *testing.T) {
	if w := width(Layout(&orc.Schema{Kind: orc.Timestamp}, directV2, true, true, false)); w != 4+3+3 {
		t.Errorf("compressed timestamp with PRESENT: width %d, want 10", w)
	}
	if w := width(nil); w != 0 {
		t.Errorf("empty layout: width %d", w)
	}
}

func TestSplit(t *testing.T) {
	layout := []Slot{{present, 4}, {data, 2}, {length, 3}}
	pos := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	parts, err := Split(pos, layout)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]uint64{{1, 2, 3, 4}, {5, 6}, {7, 8, 9}}
	if !slices.EqualFunc(parts, want, slices.Equal) {
		t.Fatalf("Split = %v, want %v", parts, want)
	}
	// Parts are capped: appending to one leaves the next alone.
	_ = append(parts[0], 100)
	if parts[1][0] != 5 {
		t.Errorf("appending to part 0 overwrote part 1: %v", parts[1])
	}
	for _, n := range []int{0, 8, 10} {
		p := make([]uint64, n)
		_, err := Split(p, layout)
		if !errors.Is(err, orc.ErrCorrupt) {
			t.Errorf("Split of %d positions: err %v, want ErrCorrupt", n, err)
		}
	}
	if parts, err := Split(nil, nil); err != nil || len(parts) != 0 {
		t.Errorf("struct entry: %v, %v", parts, err)
	}
	if _, err := Split([]uint64{1}, []Slot{{data, -1}, {length, 2}}); err == nil || errors.Is(err, orc.ErrCorrupt) {
		t.Errorf("negative count: err %v, want a non-corruption error", err)
	}
}
