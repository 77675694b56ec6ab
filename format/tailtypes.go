package format

// The schema is built from the footer's types without a protobuf message
// for each: a file of 100,000 columns made 100,000 orcpb.Type messages of
// about 160 bytes and, for each struct, a slice of its field names, all
// garbage once the schema was built (26 MB for a flat 100,000-column
// file, which the garbage collector's pacing doubled into peak RSS).
// decodeType reads one type's fields from its bytes as proto.Unmarshal
// would (the last of a repeated scalar wins, subtypes packed or not, a
// known field of the wrong wire type skipped as unknown, malformed bytes
// an error), its subtypes onto a stack the builder shares between the
// levels of the tree, and a struct's field names into one string.

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Field numbers of orcpb.Type and orcpb.StringPair.
const (
	typeKind       = 1
	typeSubtypes   = 2
	typeFieldNames = 3
	typeMaxLength  = 4
	typePrecision  = 5
	typeScale      = 6
	typeAttributes = 7
	typeCRS        = 8
	typeAlgorithm  = 9
	pairKey        = 1
	pairValue      = 2
)

// typeInfo is what the schema builder reads of one type.
type typeInfo struct {
	kind                int32
	maxLen, prec, scale uint32
	crs                 string
	hasCRS              bool
	algo                int32
	attrs               map[string]string // nil when the type has none
	// subs is the stack given to the reader with the type's subtypes
	// appended.
	subs []uint32
	// names are a struct's field names, at most one per subtype.
	names []string
}

// typeSource fills st with type i, appending its subtypes to stack.
type typeSource func(i int, st *typeInfo, stack []uint32) error

// protoTypes is the typeSource of decoded messages.
func protoTypes(types []*orcpb.Type) typeSource {
	return func(i int, st *typeInfo, stack []uint32) error {
		pt := types[i]
		*st = typeInfo{kind: int32(pt.GetKind()), maxLen: pt.GetMaximumLength(), prec: pt.GetPrecision(),
			scale: pt.GetScale(), crs: pt.GetCrs(), hasCRS: pt.Crs != nil, algo: int32(pt.GetAlgorithm()),
			subs: append(stack, pt.GetSubtypes()...), names: pt.GetFieldNames()}
		if len(pt.GetAttributes()) > 0 {
			st.attrs = make(map[string]string, len(pt.GetAttributes()))
			for _, a := range pt.GetAttributes() {
				st.attrs[a.GetKey()] = a.GetValue()
			}
		}
		return nil
	}
}

// footerTypes is the typeSource of the footer's type fields, decoded in
// place.
func (t *Tail) footerTypes() typeSource {
	return func(i int, st *typeInfo, stack []uint32) error {
		if err := decodeType(elem(t.ix.whole, t.ix.typeOffs[i]), st, stack); err != nil {
			return &orc.CorruptError{Offset: t.FooterStart, Stripe: -1, Column: i, Stream: "footer",
				Msg: fmt.Sprintf("type %d does not parse", i), Err: err}
		}
		return nil
	}
}

var errTypeField = errors.New("malformed field")

// nextField returns the field at the start of b: its number, wire type,
// the length of its tag and the length of its value, or an error when the
// bytes are not a field proto.Unmarshal accepts.
func nextField(b []byte) (protowire.Number, protowire.Type, int, int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, 0, 0, protowire.ParseError(n)
	}
	if num > protowire.MaxValidNumber {
		return 0, 0, 0, 0, fmt.Errorf("%w: field number %d", errTypeField, num)
	}
	m := protowire.ConsumeFieldValue(num, typ, b[n:])
	if m < 0 {
		return 0, 0, 0, 0, protowire.ParseError(m)
	}
	return num, typ, n, m, nil
}

// decodeType decodes the Type message b into st, its subtypes appended to
// stack.
func decodeType(b []byte, st *typeInfo, stack []uint32) error {
	*st = typeInfo{subs: stack}
	nameCount, nameBytes := 0, 0
	for p := b; len(p) > 0; {
		num, typ, n, m, err := nextField(p)
		if err != nil {
			return err
		}
		v := p[n : n+m]
		p = p[n+m:]
		switch {
		case typ == protowire.VarintType && num >= typeKind && num <= typeAlgorithm:
			x, _ := protowire.ConsumeVarint(v)
			switch num {
			case typeKind:
				st.kind = int32(x)
			case typeSubtypes:
				st.subs = append(st.subs, uint32(x))
			case typeMaxLength:
				st.maxLen = uint32(x)
			case typePrecision:
				st.prec = uint32(x)
			case typeScale:
				st.scale = uint32(x)
			case typeAlgorithm:
				st.algo = int32(x)
			}
		case typ != protowire.BytesType:
		case num == typeSubtypes:
			packed, _ := protowire.ConsumeBytes(v)
			for len(packed) > 0 {
				x, k := protowire.ConsumeVarint(packed)
				if k < 0 {
					return protowire.ParseError(k)
				}
				st.subs = append(st.subs, uint32(x))
				packed = packed[k:]
			}
		case num == typeFieldNames:
			s, _ := protowire.ConsumeBytes(v)
			nameCount++
			nameBytes += len(s)
		case num == typeAttributes:
			pair, _ := protowire.ConsumeBytes(v)
			key, value, err := decodePair(pair)
			if err != nil {
				return err
			}
			if st.attrs == nil {
				st.attrs = make(map[string]string)
			}
			st.attrs[key] = value
		case num == typeCRS:
			s, _ := protowire.ConsumeBytes(v)
			st.crs, st.hasCRS = string(s), true
		}
	}
	if st.kind != int32(orcpb.Type_STRUCT) || nameCount == 0 {
		return nil
	}
	// A struct's names, as many as it has fields, in one string.
	nameCount = min(nameCount, len(st.subs)-len(stack))
	if nameCount == 0 {
		return nil
	}
	// The bytes copied into one string (a strings.Builder gives up its
	// buffer without a copy), then cut into the names by a second walk.
	var sb strings.Builder
	sb.Grow(nameBytes)
	eachName(b, nameCount, func(s []byte) { sb.Write(s) })
	all := sb.String()
	st.names = make([]string, 0, nameCount)
	start := 0
	eachName(b, nameCount, func(s []byte) {
		st.names = append(st.names, all[start:start+len(s)])
		start += len(s)
	})
	return nil
}

// eachName calls fn with each of the first count field names of the type
// message b (whose fields decodeType has checked).
func eachName(b []byte, count int, fn func([]byte)) {
	for p := b; len(p) > 0 && count > 0; {
		num, typ, n, m, _ := nextField(p)
		if num == typeFieldNames && typ == protowire.BytesType {
			s, _ := protowire.ConsumeBytes(p[n : n+m])
			fn(s)
			count--
		}
		p = p[n+m:]
	}
}

// decodePair decodes a StringPair message.
func decodePair(b []byte) (key, value string, err error) {
	for len(b) > 0 {
		num, typ, n, m, err := nextField(b)
		if err != nil {
			return "", "", err
		}
		if typ == protowire.BytesType && (num == pairKey || num == pairValue) {
			s, _ := protowire.ConsumeBytes(b[n : n+m])
			if num == pairKey {
				key = string(s)
			} else {
				value = string(s)
			}
		}
		b = b[n+m:]
	}
	return key, value, nil
}
