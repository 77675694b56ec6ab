package reader

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/examples"
)

// The stripe footer's own decoding (checkStripeFooter, walkStripeFooter)
// accepts what proto.Unmarshal accepts and reads the same values from it:
// the example files' footers, a footer with every oddity the wire format
// allows, and random mutations of both.
func TestStripeFooterDecodeMatchesProto(t *testing.T) {
	var seeds [][]byte
	names, _ := filepath.Glob(filepath.Join(examples.Dir(t), "*.orc"))
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil || len(r.tail.Footer.GetStripes()) == 0 {
			continue
		}
		if _, _, b, err := r.stripeFooterBytes(r.r, 0); err == nil && len(b) < 1<<16 {
			seeds = append(seeds, b)
		}
	}
	// Repeated scalars, out-of-range enums, over-wide varints, fields of
	// other wire types, unknown fields, an encryption variant.
	var odd []byte
	msg := func(num protowire.Number, body []byte) {
		odd = protowire.AppendTag(odd, num, protowire.BytesType)
		odd = protowire.AppendBytes(odd, body)
	}
	var st []byte
	st = protowire.AppendTag(st, 1, protowire.VarintType)
	st = protowire.AppendVarint(st, 1)
	st = protowire.AppendTag(st, 1, protowire.VarintType)
	st = protowire.AppendVarint(st, 1<<40+42)
	st = protowire.AppendTag(st, 2, protowire.VarintType)
	st = protowire.AppendVarint(st, 1<<33+1)
	st = protowire.AppendTag(st, 3, protowire.Fixed64Type)
	st = protowire.AppendFixed64(st, 7)
	st = protowire.AppendTag(st, 3, protowire.VarintType)
	st = protowire.AppendVarint(st, 1<<63+9)
	st = protowire.AppendTag(st, 9, protowire.BytesType)
	st = protowire.AppendBytes(st, []byte("x"))
	msg(1, st)
	var ce []byte
	ce = protowire.AppendTag(ce, 1, protowire.VarintType)
	ce = protowire.AppendVarint(ce, 77)
	ce = protowire.AppendTag(ce, 2, protowire.VarintType)
	ce = protowire.AppendVarint(ce, 1<<32+3)
	ce = protowire.AppendTag(ce, 3, protowire.VarintType)
	ce = protowire.AppendVarint(ce, 1)
	ce = protowire.AppendTag(ce, 2, protowire.Fixed32Type)
	ce = protowire.AppendFixed32(ce, 5)
	msg(2, ce)
	msg(3, []byte("Europe/Paris"))
	msg(4, append(protowire.AppendTag(nil, 1, protowire.BytesType), protowire.AppendBytes(nil, st)...))
	odd = protowire.AppendTag(odd, 2, protowire.VarintType)
	odd = protowire.AppendVarint(odd, 3)
	msg(3, []byte("UTC"))
	seeds = append(seeds, odd)

	rng := rand.New(rand.NewPCG(1, 2))
	checked, parsed := 0, 0
	for _, seed := range seeds {
		for k := range 300 {
			data := append([]byte(nil), seed...)
			if k > 0 {
				for range 1 + rng.IntN(3) {
					switch i := rng.IntN(len(data) + 1); {
					case i == len(data) || rng.IntN(4) == 0:
						data = data[:rng.IntN(len(data)+1)]
					default:
						data[i] = byte(rng.Uint32())
					}
					if len(data) == 0 {
						break
					}
				}
			}
			checked++
			var sf orcpb.StripeFooter
			perr := proto.Unmarshal(data, &sf)
			nstreams, nenc, err := checkStripeFooter(data)
			if (perr == nil) != (err == nil) {
				t.Fatalf("footer %x: proto says %v, checkStripeFooter %v", data, perr, err)
			}
			if err != nil {
				continue
			}
			parsed++
			if nstreams != len(sf.GetStreams()) || nenc != len(sf.GetColumns()) {
				t.Fatalf("footer %x: %d streams and %d encodings, proto %d and %d", data, nstreams, nenc, len(sf.GetStreams()), len(sf.GetColumns()))
			}
			var streams []stripeStream
			var encs []colEncoding
			zone := ""
			if err := walkStripeFooter(data, func(s stripeStream) error { streams = append(streams, s); return nil },
				func(e colEncoding) { encs = append(encs, e) }, func(z string) { zone = z }); err != nil {
				t.Fatal(err)
			}
			for i, s := range sf.GetStreams() {
				if g := streams[i]; g.kind != s.GetKind() || g.column != s.GetColumn() || uint64(g.length) != s.GetLength() {
					t.Fatalf("footer %x: stream %d is %+v, proto %v", data, i, g, s)
				}
			}
			for i, e := range sf.GetColumns() {
				if g := encs[i]; g.kind != e.GetKind() || g.dictSize != e.GetDictionarySize() || g.bloom != e.GetBloomEncoding() {
					t.Fatalf("footer %x: encoding %d is %+v, proto %v", data, i, g, e)
				}
			}
			if zone != sf.GetWriterTimezone() {
				t.Fatalf("footer %x: zone %q, proto %q", data, zone, sf.GetWriterTimezone())
			}
		}
	}
	if parsed < checked/10 { // most mutations break the framing; enough must not
		t.Fatalf("only %d of %d footers parse", parsed, checked)
	}
	t.Logf("%d footers, %d parsed", checked, parsed)
}
