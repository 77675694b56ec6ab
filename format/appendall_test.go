package format

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"runtime"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
)

// AppendAll of a compressed stream held whole gives the stream's bytes
// after dst's, allocating one buffer of their size (not copies joined),
// reads the rest of a stream begun, and refuses more than limit bytes.
func TestAppendAllExactSize(t *testing.T) {
	var stream, want []byte
	for i := range 300 {
		block := bytes.Repeat([]byte(fmt.Sprintf("chunk %d;", i)), 300)
		want = append(want, block...)
		if i%7 == 3 {
			stream = append(stream, chunk(block, true)...)
		} else {
			stream = append(stream, zlibChunk(t, block)...)
		}
	}
	dec, _ := NewDecompressor(orc.CompressionZlib)
	newIn := func() *InStream {
		return NewInStream(StreamInfo{Name: "test"}, stream, orc.CompressionZlib, 1<<16, dec)
	}
	got, err := AppendAll([]byte("head:"), newIn(), 1<<30)
	if err != nil || !bytes.Equal(got, append([]byte("head:"), want...)) {
		t.Fatalf("AppendAll: %d bytes, %v", len(got), err)
	}
	if _, err := AppendAll(nil, newIn(), int64(len(want)-1)); !errors.Is(err, orc.ErrLimit) {
		t.Fatalf("over the limit: %v", err)
	}
	in := newIn()
	first, err := in.NextChunk()
	if err != nil {
		t.Fatal(err)
	}
	n := len(first)
	if got, err := AppendAll(nil, in, 1<<30); err != nil || !bytes.Equal(got, want[n:]) {
		t.Fatalf("AppendAll after a chunk: %d bytes, %v", len(got), err)
	}
	in = newIn()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	got, err = AppendAll(nil, in, 1<<30)
	runtime.ReadMemStats(&m1)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendAll: %d bytes, %v", len(got), err)
	}
	if extra := int64(m1.TotalAlloc-m0.TotalAlloc) - int64(len(want)); extra > 256<<10 {
		t.Errorf("AppendAll of %d bytes allocated %d more", len(want), extra)
	}
}

// section.walk, reading a window at a time, finds the fields walkFields
// finds in the whole message: fields cut by a window's end, one longer
// than a window, compressed or not; and fails where walkFields fails.
func TestSectionWalk(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var msg []byte
	for len(msg) < 400<<10 {
		num := protowire.Number(1 + rng.Intn(20))
		switch rng.Intn(5) {
		case 0:
			msg = protowire.AppendVarint(protowire.AppendTag(msg, num, protowire.VarintType), rng.Uint64()>>rng.Intn(64))
		case 1:
			msg = protowire.AppendFixed32(protowire.AppendTag(msg, num, protowire.Fixed32Type), rng.Uint32())
		case 2:
			msg = protowire.AppendFixed64(protowire.AppendTag(msg, num, protowire.Fixed64Type), rng.Uint64())
		default:
			n := rng.Intn(200)
			if rng.Intn(300) == 0 {
				n = 150 << 10
			}
			msg = protowire.AppendBytes(protowire.AppendTag(msg, num, protowire.BytesType), make([]byte, n))
		}
	}
	if !bytes.Contains(msg, make([]byte, 150<<10)) {
		t.Fatal("no field longer than a window")
	}
	type field struct {
		num protowire.Number
		typ protowire.Type
		off int
	}
	var want []field
	if err := walkFields(msg, func(num protowire.Number, typ protowire.Type, off int, _ []byte) {
		want = append(want, field{num, typ, off})
	}); err != nil {
		t.Fatal(err)
	}
	for _, comp := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		tail := &Tail{Compression: comp, BlockSize: 10000}
		stored := msg
		if comp != orc.CompressionNone {
			c, _ := NewBlockCompressor(comp, 0, tail.BlockSize)
			out := NewOutStream(comp, tail.BlockSize, c)
			out.Write(msg)
			if err := out.Flush(); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := out.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			stored = buf.Bytes()
		}
		dec, _ := NewDecompressor(comp)
		whole, sec, err := tail.decompressSection("test", stored, 0, dec, 1<<30)
		if err != nil || !bytes.Equal(whole, msg) {
			t.Fatalf("%s: %v", comp, err)
		}
		for _, start := range []int{0, want[len(want)/2].off} {
			var got []field
			if err := sec.walk(start, len(msg)-start, func(num protowire.Number, typ protowire.Type, off int) {
				got = append(got, field{num, typ, off})
			}); err != nil {
				t.Fatalf("%s: %v", comp, err)
			}
			var w []field
			for _, f := range want {
				if f.off >= start {
					w = append(w, f)
				}
			}
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("%s from %d: %d fields, want %d", comp, start, len(got), len(w))
			}
		}
		// The message cut in a field: an error, as for walkFields.
		if err := sec.walk(0, len(msg)-1, func(protowire.Number, protowire.Type, int) {}); err == nil {
			t.Fatalf("%s: a cut message walked", comp)
		}
	}
}
