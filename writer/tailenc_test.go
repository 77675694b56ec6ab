package writer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

// appendType writes what appendMessage writes of format.TypeOf's message,
// for every kind, with attributes, and for compound types.
func TestAppendTypeAsMessage(t *testing.T) {
	s := orc.MustParseSchema("struct<a:boolean,b:tinyint,c:smallint,d:int,e:bigint,f:float,g:double,h:string,i:binary," +
		"j:timestamp,k:timestamp with local time zone,l:date,m:decimal(12,3),n:char(4),o:varchar(9)," +
		"p:array<int>,q:map<string,int>,r:uniontype<int,string>,s:struct<>,t:geometry,u:geography>")
	s.Children[3].Attributes = map[string]string{"iceberg.id": "7"}
	var nodes []*orc.Schema
	s.Walk(func(n *orc.Schema) { nodes = append(nodes, n) })
	for _, n := range nodes {
		want, err := appendMessage([]byte("x"), footerTypes, format.TypeOf(n))
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendType([]byte("x"), n)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: appendType %x, %v; appendMessage %x", n, got, err, want)
		}
	}
}

// endMessage puts a message's length before it, moving it up when the
// length takes more than a byte.
func TestEndMessageLengths(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 16383, 16384, 1 << 21} {
		body := bytes.Repeat([]byte{7}, n)
		dst, at := beginMessage([]byte("ab"), 5)
		dst = endMessage(append(dst, body...), at)
		want := protowire.AppendTag([]byte("ab"), 5, protowire.BytesType)
		want = protowire.AppendBytes(want, body)
		if !bytes.Equal(dst, want) {
			t.Errorf("a message of %d bytes: %d bytes written, want %d", n, len(dst), len(want))
		}
	}
}

// appendTypeParts, handing pieces to its part function, writes what
// appendMessage writes of format.TypeOf's message, for compound types
// large and small.
func TestAppendTypePartsAsMessage(t *testing.T) {
	var fields strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&fields, ",f%d:int", i*i)
	}
	s := orc.MustParseSchema("struct<a:array<int>,m:map<string,double>,u:uniontype<int,string,date>,w:struct<é:int" + fields.String() + ">>")
	var nodes []*orc.Schema
	s.Walk(func(n *orc.Schema) { nodes = append(nodes, n) })
	for _, n := range nodes {
		want, err := appendMessage(nil, footerTypes, format.TypeOf(n))
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		parts := 0
		last, err := appendTypeParts([]byte{}, n, func(b []byte) ([]byte, error) {
			got = append(got, b...)
			parts++
			return b[:0], nil
		})
		got = append(got, last...)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes in %d parts, %v; appendMessage %d bytes", n.StringDepth(1), len(got), parts, err, len(want))
		}
		if len(n.Children) > 2000 && parts < 2 {
			t.Errorf("%s: %d parts", n.StringDepth(1), parts)
		}
	}
}
