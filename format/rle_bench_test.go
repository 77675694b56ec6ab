package format

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// chunkedSource hands out data in fixed-size chunks without copying, like a
// decompressed stream; rewind starts over.
type chunkedSource struct {
	data []byte
	size int
	pos  int
}

func (s *chunkedSource) NextChunk() ([]byte, error) {
	if s.pos >= len(s.data) {
		return nil, io.EOF
	}
	n := min(s.size, len(s.data)-s.pos)
	s.pos += n
	return s.data[s.pos-n : s.pos], nil
}

func (s *chunkedSource) rewind() { s.pos = 0 }

const benchValues = 1 << 16

type benchShape struct {
	name   string
	signed bool
	gen    func(rng *rand.Rand, i int) int64
}

var intShapes = []benchShape{
	{"direct1", false, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(2)) }},
	{"direct4", false, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(16)) }},
	{"direct8", true, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(200) - 100) }},
	{"direct16", true, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(60000) - 30000) }},
	{"direct18", false, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(200000)) }}, // a width of no byte multiple
	{"direct24", false, func(rng *rand.Rand, i int) int64 { return int64(rng.IntN(1 << 24)) }},
	{"direct32", true, func(rng *rand.Rand, i int) int64 { return int64(rng.Int32()) }},
	{"direct48", false, func(rng *rand.Rand, i int) int64 { return int64(rng.Uint64() >> 16) }},
	{"direct64", true, func(rng *rand.Rand, i int) int64 { return int64(rng.Uint64()) }},
	{"delta", true, func() func(rng *rand.Rand, i int) int64 {
		v := int64(1_700_000_000)
		return func(rng *rand.Rand, i int) int64 { v += int64(1 + rng.IntN(200)); return v }
	}()},
	{"fixed-delta", false, func(rng *rand.Rand, i int) int64 { return int64(i) }},
	{"repeat", true, func(rng *rand.Rand, i int) int64 { return int64(i / 5000) }},
	{"short-repeat", true, func(rng *rand.Rand, i int) int64 { return int64(i/5) % 7 }},
}

func benchEncodeV2(b *testing.B, sh benchShape) ([]int64, []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]int64, benchValues)
	for i := range vals {
		vals[i] = sh.gen(rng, i)
	}
	return vals, encodeV2(b, vals, sh.signed)
}

// handPacked builds a stream of DIRECT runs at a width our writer does not
// use (the generic unpack path) and of PATCHED_BASE runs.
func handPacked(kind string) ([]int64, []byte) {
	rng := rand.New(rand.NewPCG(3, 4))
	var enc []byte
	var vals []int64
	for len(vals) < benchValues {
		raw := make([]uint64, 512)
		for i := range raw {
			raw[i] = rng.Uint64() & mask(12)
		}
		if kind == "direct12" {
			enc = append(enc, directRun(11, raw)...)
			for _, v := range raw {
				vals = append(vals, int64(v))
			}
			continue
		}
		// PATCHED_BASE: 12-bit values plus 20 patches of 8 more bits.
		var entries [][2]uint64
		want := make([]int64, 512)
		for i, v := range raw {
			want[i] = int64(v) + 1000
		}
		for p := 10; p < 512; p += 25 {
			entries = append(entries, [2]uint64{25, 0xab})
			want[p] += 0xab << 12
		}
		entries[0][0] = 10
		enc = append(enc, patchedRun(1000, 2, 11, raw, 7, 5, entries)...)
		vals = append(vals, want...)
	}
	return vals, enc
}

func BenchmarkIntRLEv2Decode(b *testing.B) {
	type input struct {
		name   string
		signed bool
		vals   []int64
		enc    []byte
	}
	var inputs []input
	for _, sh := range intShapes {
		vals, enc := benchEncodeV2(b, sh)
		inputs = append(inputs, input{sh.name, sh.signed, vals, enc})
	}
	for _, k := range []string{"direct12", "patched"} {
		vals, enc := handPacked(k)
		inputs = append(inputs, input{k, false, vals, enc})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			src := &chunkedSource{data: in.enc, size: 256 << 10}
			d := NewIntRLEv2Decoder(src, in.signed)
			dst := make([]int64, 1024)
			n := len(in.vals)
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			for b.Loop() {
				src.rewind()
				d.Reset(src)
				for p := 0; p < n; p += len(dst) {
					if err := d.Next(dst[:min(len(dst), n-p)]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(in.enc))/float64(n), "B/value")
		})
	}
}

func BenchmarkIntRLEv1Decode(b *testing.B) {
	for _, sh := range []benchShape{intShapes[2], intShapes[8], intShapes[10]} {
		rng := rand.New(rand.NewPCG(1, 2))
		vals := make([]int64, benchValues)
		for i := range vals {
			vals[i] = sh.gen(rng, i)
		}
		enc := encodeV1(b, vals, sh.signed)
		b.Run(sh.name, func(b *testing.B) {
			src := &chunkedSource{data: enc, size: 256 << 10}
			d := NewIntRLEv1Decoder(src, sh.signed)
			dst := make([]int64, 1024)
			b.SetBytes(int64(8 * len(vals)))
			b.ReportAllocs()
			for b.Loop() {
				src.rewind()
				d.Reset(src)
				for p := 0; p < len(vals); p += len(dst) {
					if err := d.Next(dst); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkIntRLEv2Encode(b *testing.B) {
	for _, sh := range intShapes {
		vals, _ := benchEncodeV2(b, sh)
		b.Run(sh.name, func(b *testing.B) {
			var s sinkBuf
			e := NewIntRLEv2Encoder(&s, sh.signed)
			b.SetBytes(int64(8 * len(vals)))
			b.ReportAllocs()
			for b.Loop() {
				s.Reset()
				e.Reset(&s)
				e.WriteValues(vals)
				if err := e.Flush(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkByteRLEDecode(b *testing.B) {
	shapes := map[string]func(rng *rand.Rand, i int) byte{
		"literals": func(rng *rand.Rand, i int) byte { return byte(rng.Uint32()) },
		"runs":     func(rng *rand.Rand, i int) byte { return byte(i / 100) },
		"mixed": func(rng *rand.Rand, i int) byte {
			if i/64%2 == 0 {
				return byte(i / 640)
			}
			return byte(rng.Uint32())
		},
	}
	for _, name := range []string{"literals", "runs", "mixed"} {
		rng := rand.New(rand.NewPCG(5, 6))
		vals := make([]byte, benchValues)
		for i := range vals {
			vals[i] = shapes[name](rng, i)
		}
		enc := encodeBytes(b, vals)
		b.Run(name, func(b *testing.B) {
			src := &chunkedSource{data: enc, size: 256 << 10}
			d := NewByteRLEDecoder(src)
			dst := make([]byte, 1024)
			b.SetBytes(int64(len(vals)))
			b.ReportAllocs()
			for b.Loop() {
				src.rewind()
				d.Reset(src)
				for p := 0; p < len(vals); p += len(dst) {
					if err := d.Next(dst); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkBoolRLEDecode(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"random", "mostly-true"} {
		vals := make([]bool, benchValues)
		for i := range vals {
			if name == "random" {
				vals[i] = rng.IntN(2) == 0
			} else {
				vals[i] = rng.IntN(1000) != 0
			}
		}
		enc := encodeBools(b, vals)
		b.Run(name, func(b *testing.B) {
			src := &chunkedSource{data: enc, size: 256 << 10}
			d := NewBoolRLEDecoder(src)
			dst := make([]bool, 1024)
			b.SetBytes(int64(len(vals)))
			b.ReportAllocs()
			for b.Loop() {
				src.rewind()
				d.Reset(src)
				for p := 0; p < len(vals); p += len(dst) {
					if _, err := d.NextPresent(dst); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// Small compression blocks put many runs across chunk boundaries (the slow
// path that copies a run into scratch first).
func BenchmarkIntRLEv2DecodeSmallChunks(b *testing.B) {
	for _, sh := range []benchShape{intShapes[3], intShapes[8]} {
		vals, enc := benchEncodeV2(b, sh)
		for _, size := range []int{1000, 100} {
			b.Run(fmt.Sprintf("%s/%d", sh.name, size), func(b *testing.B) {
				src := &chunkedSource{data: enc, size: size}
				d := NewIntRLEv2Decoder(src, sh.signed)
				dst := make([]int64, 1024)
				b.SetBytes(int64(8 * len(vals)))
				b.ReportAllocs()
				for b.Loop() {
					src.rewind()
					d.Reset(src)
					for p := 0; p < len(vals); p += len(dst) {
						if err := d.Next(dst); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// BenchmarkRLESkip skips through byte-RLE and RLE v1 streams 50 values at
// a time, as a scan passes over the rows its filter dropped.
func BenchmarkRLESkip(b *testing.B) {
	const step = 50
	skipAll := func(b *testing.B, src *chunkedSource, reset func(), skip func(int64) error, n int) {
		b.ReportAllocs()
		for b.Loop() {
			src.rewind()
			reset()
			for p := 0; p < n; p += step {
				if err := skip(int64(min(step, n-p))); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for _, name := range []string{"literals", "runs"} {
		rng := rand.New(rand.NewPCG(5, 6))
		vals := make([]byte, benchValues)
		for i := range vals {
			if name == "runs" {
				vals[i] = byte(i / 100)
			} else {
				vals[i] = byte(rng.Uint32())
			}
		}
		src := &chunkedSource{data: encodeBytes(b, vals), size: 256 << 10}
		d := NewByteRLEDecoder(src)
		b.Run("byte/"+name, func(b *testing.B) { skipAll(b, src, func() { d.Reset(src) }, d.Skip, len(vals)) })
	}
	for _, sh := range []benchShape{intShapes[2], intShapes[10]} {
		rng := rand.New(rand.NewPCG(1, 2))
		vals := make([]int64, benchValues)
		for i := range vals {
			vals[i] = sh.gen(rng, i)
		}
		src := &chunkedSource{data: encodeV1(b, vals, sh.signed), size: 256 << 10}
		d := NewIntRLEv1Decoder(src, sh.signed)
		b.Run("v1/"+sh.name, func(b *testing.B) { skipAll(b, src, func() { d.Reset(src) }, d.Skip, len(vals)) })
	}
}
