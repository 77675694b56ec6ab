package format

import (
	"math/rand/v2"
	"testing"
)

// NextRepeat, interleaved with Next and Skip, hands out exactly the values
// of the stream: the copies of one value it consumes, then whatever Next
// reads, for RLE v1 and v2 over runs of every kind (repeats long and short,
// steps, literals) and chunks cut anywhere.
func TestNextRepeat(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var vals []int64
	for len(vals) < 30000 {
		n := 1 + rng.IntN(700)
		switch rng.IntN(4) {
		case 0: // copies
			v := rng.Int64N(100) - 50
			for range n {
				vals = append(vals, v)
			}
		case 1: // short copies
			v := rng.Int64N(1 << 40)
			for range 3 + rng.IntN(8) {
				vals = append(vals, v)
			}
		case 2: // steps
			v, d := rng.Int64N(1000), rng.Int64N(9)-4
			for range n {
				vals = append(vals, v)
				v += d
			}
		default: // noise
			for range n {
				vals = append(vals, rng.Int64N(1<<20)-1<<19)
			}
		}
	}
	for _, v2 := range []bool{false, true} {
		var enc []byte
		if v2 {
			enc = encodeV2(t, vals, true)
		} else {
			enc = encodeV1(t, vals, true)
		}
		for si, src := range sources(enc) {
			var d IntDecoder
			if v2 {
				d = NewIntRLEv2Decoder(src, true)
			} else {
				d = NewIntRLEv1Decoder(src, true)
			}
			buf := make([]int64, 600)
			repeats := 0
			for p := 0; p < len(vals); {
				k := min(1+rng.IntN(600), len(vals)-p)
				switch rng.IntN(3) {
				case 0:
					v, n, err := d.NextRepeat(k)
					if err != nil {
						t.Fatal(err)
					}
					if n > k {
						t.Fatalf("v2=%v source %d: NextRepeat(%d) consumed %d", v2, si, k, n)
					}
					for i := range n {
						if vals[p+i] != v {
							t.Fatalf("v2=%v source %d: NextRepeat at %d gave %d x%d, value %d is %d", v2, si, p, v, n, p+i, vals[p+i])
						}
					}
					repeats += n
					p += n
				case 1:
					if err := d.Skip(int64(k)); err != nil {
						t.Fatal(err)
					}
					p += k
				default:
					if err := d.Next(buf[:k]); err != nil {
						t.Fatal(err)
					}
					equalInts(t, "Next after NextRepeat", buf[:k], vals[p:p+k])
					p += k
				}
			}
			if repeats == 0 {
				t.Fatalf("v2=%v source %d: NextRepeat never consumed anything", v2, si)
			}
			if _, n, err := d.NextRepeat(0); n != 0 || err != nil {
				t.Fatalf("NextRepeat(0) at the end = %d, %v", n, err)
			}
		}
	}
}
