package writer

import (
	"bytes"
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
