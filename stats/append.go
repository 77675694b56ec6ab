package stats

import (
	"bytes"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
)

// The field numbers of orcpb.ColumnStatistics and orcpb.IntegerStatistics
// that AppendProto writes itself.
const (
	colNumberOfValues protowire.Number = 1
	colIntStatistics  protowire.Number = 2
	colHasNull        protowire.Number = 10
	colBytesOnDisk    protowire.Number = 11

	intMinimum protowire.Number = 1
	intMaximum protowire.Number = 2
	intSum     protowire.Number = 3
)

// AppendProto appends the statistics to dst encoded as proto.Marshal
// encodes Proto's message, byte for byte. The statistics of integers and
// structs, the many columns of a wide table, are encoded without making
// the message (for 100,000 columns, messages of some 300 bytes a column
// each time a row group or stripe ends and at Close); those of the other
// kinds through it.
func (a *Accumulator) AppendProto(dst []byte) ([]byte, error) {
	if a.direct() {
		return a.appendProto(dst), nil
	}
	return proto.MarshalOptions{}.MarshalAppend(dst, a.Proto())
}

// Marshal returns the statistics encoded as proto.Marshal encodes
// Proto's message (AppendProto), in a slice of their length.
func (a *Accumulator) Marshal() ([]byte, error) {
	if a.direct() {
		var buf [64]byte // an integer's statistics take 60 bytes at most
		return bytes.Clone(a.appendProto(buf[:0])), nil
	}
	return proto.Marshal(a.Proto())
}

// direct reports whether appendProto encodes a's statistics.
func (a *Accumulator) direct() bool {
	switch a.kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Struct:
		return !a.mismatch
	}
	return false
}

// appendProto is AppendProto for integers and structs: the fields in the
// order of their numbers, as proto.Marshal writes them, and for integers
// the IntegerStatistics Column.Proto always sets (min and max when there
// are values, the sum unless it overflowed).
func (a *Accumulator) appendProto(dst []byte) []byte {
	dst = protowire.AppendTag(dst, colNumberOfValues, protowire.VarintType)
	dst = protowire.AppendVarint(dst, a.count)
	if a.kind != orc.Struct {
		some, sum := a.count > 0, !a.isumOverflow
		n := 0
		if some {
			n += 2 + protowire.SizeVarint(protowire.EncodeZigZag(a.imin)) + protowire.SizeVarint(protowire.EncodeZigZag(a.imax))
		}
		if sum {
			n += 1 + protowire.SizeVarint(protowire.EncodeZigZag(a.isum))
		}
		dst = protowire.AppendTag(dst, colIntStatistics, protowire.BytesType)
		dst = protowire.AppendVarint(dst, uint64(n))
		if some {
			dst = protowire.AppendTag(dst, intMinimum, protowire.VarintType)
			dst = protowire.AppendVarint(dst, protowire.EncodeZigZag(a.imin))
			dst = protowire.AppendTag(dst, intMaximum, protowire.VarintType)
			dst = protowire.AppendVarint(dst, protowire.EncodeZigZag(a.imax))
		}
		if sum {
			dst = protowire.AppendTag(dst, intSum, protowire.VarintType)
			dst = protowire.AppendVarint(dst, protowire.EncodeZigZag(a.isum))
		}
	}
	dst = protowire.AppendTag(dst, colHasNull, protowire.VarintType)
	dst = protowire.AppendVarint(dst, protowire.EncodeBool(a.hasNull))
	if a.bytesOnDisk != 0 {
		dst = protowire.AppendTag(dst, colBytesOnDisk, protowire.VarintType)
		dst = protowire.AppendVarint(dst, a.bytesOnDisk)
	}
	return dst
}
