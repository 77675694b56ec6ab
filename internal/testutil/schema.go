// Package testutil builds seeded random schemas and batches for the
// writer's and reader's tests, turns batches into plain Go values for
// comparison, and recomputes column statistics from those values with a
// deliberately simple implementation, independent of package stats'
// accumulators.
//
// Everything here is test support: it favours clarity over speed and
// allocates freely.
package testutil

import (
	"fmt"
	"math/rand/v2"

	"github.com/orcgo/orc"
)

// primitiveKinds lists every primitive kind the writer supports.
var primitiveKinds = []orc.Kind{
	orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double,
	orc.String, orc.Varchar, orc.Char, orc.Binary, orc.Decimal, orc.Date,
	orc.Timestamp, orc.TimestampInstant,
}

// PrimitiveKinds returns every primitive kind, in a fixed order.
func PrimitiveKinds() []orc.Kind { return append([]orc.Kind(nil), primitiveKinds...) }

// RandomPrimitive returns a node of kind k with random parameters: decimal
// precision 1..38 (the full range, with 38 and 1 favoured) and scale
// 0..precision, char and varchar lengths mostly short, sometimes 255.
func RandomPrimitive(r *rand.Rand, k orc.Kind) *orc.Schema {
	s := &orc.Schema{Kind: k}
	switch k {
	case orc.Decimal:
		switch r.IntN(4) {
		case 0:
			s.Precision = 38
		case 1:
			s.Precision = 1 + r.IntN(18)
		default:
			s.Precision = 1 + r.IntN(38)
		}
		s.Scale = r.IntN(s.Precision + 1)
	case orc.Char, orc.Varchar:
		if r.IntN(5) == 0 {
			s.MaxLength = 255
		} else {
			s.MaxLength = 1 + r.IntN(12)
		}
	}
	return s
}

// RandomType returns a random type tree of at most depth levels of
// compound types (struct, array, map, uniontype) above a primitive. With
// depth 0 it is a primitive.
func RandomType(r *rand.Rand, depth int) *orc.Schema {
	if depth <= 0 || r.IntN(3) == 0 {
		return RandomPrimitive(r, primitiveKinds[r.IntN(len(primitiveKinds))])
	}
	switch r.IntN(4) {
	case 0:
		return randomStruct(r, depth, 1+r.IntN(3))
	case 1:
		return &orc.Schema{Kind: orc.List, Children: []*orc.Schema{RandomType(r, depth-1)}}
	case 2:
		// Keys are primitive, as Hive requires; values anything.
		key := RandomPrimitive(r, primitiveKinds[r.IntN(len(primitiveKinds))])
		return &orc.Schema{Kind: orc.Map, Children: []*orc.Schema{key, RandomType(r, depth-1)}}
	default:
		n := 1 + r.IntN(3)
		u := &orc.Schema{Kind: orc.Union}
		for i := 0; i < n; i++ {
			u.Children = append(u.Children, RandomType(r, depth-1))
		}
		return u
	}
}

func randomStruct(r *rand.Rand, depth, fields int) *orc.Schema {
	s := &orc.Schema{Kind: orc.Struct}
	for i := 0; i < fields; i++ {
		s.Children = append(s.Children, RandomType(r, depth-1))
		s.FieldNames = append(s.FieldNames, fmt.Sprintf("f%d", i))
	}
	return s
}

// RandomSchema returns a struct schema of 1..maxFields top-level columns,
// each a random type nested up to depth compound levels (the root struct
// not counted). The tree is numbered (Assign).
func RandomSchema(r *rand.Rand, maxFields, depth int) *orc.Schema {
	s := &orc.Schema{Kind: orc.Struct}
	n := 1 + r.IntN(maxFields)
	for i := 0; i < n; i++ {
		s.Children = append(s.Children, RandomType(r, depth))
		s.FieldNames = append(s.FieldNames, fmt.Sprintf("c%d", i))
	}
	s.Assign()
	return s
}

// AllTypesSchema returns a struct with one column of every primitive kind
// and one of each compound kind nested three deep, so that a single file
// covers every stream of every type.
func AllTypesSchema() *orc.Schema {
	return orc.MustParseSchema("struct<" +
		"bo:boolean,ti:tinyint,si:smallint,i:int,bi:bigint,fl:float,do:double," +
		"st:string,vc:varchar(5),ch:char(7),bin:binary,d1:decimal(1,0),d18:decimal(18,6),d38:decimal(38,10)," +
		"da:date,ts:timestamp,tsi:timestamp with local time zone," +
		"s:struct<a:int,b:array<map<string,uniontype<int,string,struct<x:double>>>>>," +
		"l:array<array<struct<p:string,q:decimal(38,38)>>>," +
		"m:map<int,map<string,array<timestamp>>>," +
		"u:uniontype<boolean,array<binary>,struct<y:uniontype<date,char(3)>>>>")
}
