package format

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
)

// typeSeeds are Type messages with every field set, repeated and packed
// subtypes, and attributes.
func typeSeeds() [][]byte {
	var seeds [][]byte
	for _, pt := range []*orcpb.Type{
		{Kind: orcpb.Type_STRUCT.Enum(), Subtypes: []uint32{1, 2, 300}, FieldNames: []string{"a", "", "long name é"}},
		{Kind: orcpb.Type_STRUCT.Enum(), Subtypes: []uint32{1, 2}, FieldNames: []string{"only"}},
		{Kind: orcpb.Type_STRUCT.Enum(), Subtypes: []uint32{1}, FieldNames: []string{"x", "y", "z"}},
		{Kind: orcpb.Type_DECIMAL.Enum(), Precision: proto.Uint32(12), Scale: proto.Uint32(3)},
		{Kind: orcpb.Type_VARCHAR.Enum(), MaximumLength: proto.Uint32(70000)},
		{Kind: orcpb.Type_GEOGRAPHY.Enum(), Crs: proto.String("EPSG:4326"), Algorithm: orcpb.Type_KARNEY.Enum()},
		{Kind: orcpb.Type_GEOMETRY.Enum(), Crs: proto.String("")},
		{Kind: orcpb.Type_INT.Enum(), Attributes: []*orcpb.StringPair{
			{Key: proto.String("iceberg.id"), Value: proto.String("7")}, {Key: proto.String("k")}, {Key: proto.String("k"), Value: proto.String("v2")}}},
	} {
		b, err := proto.Marshal(pt)
		if err != nil {
			panic(err)
		}
		seeds = append(seeds, b)
	}
	// Unpacked subtypes, a field repeated, a known field of the wrong wire
	// type and an unknown field.
	seeds = append(seeds, []byte{0x08, 0x0c, 0x10, 0x01, 0x10, 0x02, 0x12, 0x01, 0x03, 0x08, 0x0d, 0x0d, 1, 2, 3, 4, 0x50, 0x05})
	// A field number past the largest valid one (2^29), which
	// proto.Unmarshal refuses.
	seeds = append(seeds, append(protowire.AppendTag([]byte{0x08, 0x03}, 1<<29, protowire.VarintType), 0))
	return seeds
}

// decodeType reads a type as proto.Unmarshal does: on mutations of
// messages with every field, both fail or both give the same type.
func TestDecodeTypeMatchesUnmarshal(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	runs, fails := 0, 0
	stack := []uint32{9, 9} // a parent's subtypes, which must stay
	for _, seed := range typeSeeds() {
		for range 3000 {
			b := append([]byte(nil), seed...)
			for range 1 + rng.Intn(3) {
				switch op := rng.Intn(4); {
				case op == 0 && len(b) > 0:
					b[rng.Intn(len(b))] = byte(rng.Intn(256))
				case op == 1 && len(b) > 0:
					b = b[:rng.Intn(len(b))]
				case op == 2:
					i := rng.Intn(len(b) + 1)
					b = append(b[:i], append([]byte{byte(rng.Intn(256))}, b[i:]...)...)
				default:
					b = append(b, seed[rng.Intn(len(seed)):]...)
				}
			}
			runs++
			checkDecodeType(t, b, stack)
			if proto.Unmarshal(b, &orcpb.Type{}) != nil {
				fails++
			}
		}
	}
	for _, seed := range typeSeeds() {
		checkDecodeType(t, seed, stack)
	}
	t.Logf("%d mutants, %d not parsing", runs, fails)
}

func checkDecodeType(t *testing.T, b []byte, stack []uint32) {
	t.Helper()
	pt := &orcpb.Type{}
	werr := proto.Unmarshal(b, pt)
	var got typeInfo
	gerr := decodeType(b, &got, stack[:len(stack):len(stack)])
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("% x: proto.Unmarshal: %v, decodeType: %v", b, werr, gerr)
	}
	if werr != nil {
		return
	}
	var want typeInfo
	if err := protoTypes([]*orcpb.Type{pt})(0, &want, stack[:len(stack):len(stack)]); err != nil {
		t.Fatal(err)
	}
	// decodeType keeps a struct's names only, at most one per subtype.
	if want.kind != int32(orcpb.Type_STRUCT) {
		want.names = nil
	} else if n := len(want.subs) - len(stack); len(want.names) > n {
		want.names = want.names[:n]
	}
	if len(want.names) == 0 {
		want.names = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("% x:\ndecodeType %+v\nUnmarshal  %+v", b, got, want)
	}
}

// The schema a tail builds from the footer's bytes is the one built from
// the footer's decoded types, on Apache's example files (and a file's
// damaged types fail both ways).
func TestTailSchemaMatchesDecodedTypes(t *testing.T) {
	dir := examples.Dir(t)
	if dir == "" {
		t.Skip("no example files")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.orc"))
	checked := 0
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		tail, err := ReadTail(bytes.NewReader(data), int64(len(data)), TailOptions{})
		if err != nil || tail.NumTypes() == 0 {
			continue // damaged, encrypted or empty
		}
		types, err := tail.Types()
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		want, err := SchemaFromTypes(types)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if !reflect.DeepEqual(tail.Schema, want) {
			t.Fatalf("%s: schema %s, from the decoded types %s", n, tail.Schema, want)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("%d example files checked", checked)
	}
	t.Logf("%d files", checked)
}
