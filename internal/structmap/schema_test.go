package structmap

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"
)

type Inner struct {
	A int32  `orc:"a"`
	B string `orc:"b"`
}

type Embedded struct {
	E1 int8
	e2 int8 //lint:ignore U1000 unexported: the test checks it is left out
}

type withEmbedded struct {
	Embedded
	X bool `orc:"x"`
}

type withTaggedEmbedded struct {
	Embedded `orc:"emb"`
	X        bool `orc:"x"`
}

type Named string
type Level uint8

type recursive struct {
	Name     string
	Children []recursive
}

type recursivePtr struct {
	Next *recursivePtr
}

func TestSchemaOf(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"ints", reflect.TypeFor[struct {
			I8  int8
			I16 int16
			I32 int32
			I64 int64
			I   int
		}](), "struct<I8:tinyint,I16:smallint,I32:int,I64:bigint,I:bigint>"},
		{"uints widen", reflect.TypeFor[struct {
			U8  uint8
			U16 uint16
			U32 uint32
			U64 uint64
			U   uint
		}](), "struct<U8:smallint,U16:int,U32:bigint,U64:bigint,U:bigint>"},
		{"scalars", reflect.TypeFor[struct {
			B   bool    `orc:"b"`
			F   float32 `orc:"f"`
			D   float64 `orc:"d"`
			S   string  `orc:"s"`
			Raw []byte  `orc:"raw"`
		}](), "struct<b:boolean,f:float,d:double,s:string,raw:binary>"},
		{"time options", reflect.TypeFor[struct {
			TS  time.Time `orc:"ts"`
			D   time.Time `orc:"d,date"`
			In  time.Time `orc:"in,instant"`
			TS2 time.Time `orc:"ts2,timestamp"`
		}](), "struct<ts:timestamp,d:date,in:timestamp with local time zone,ts2:timestamp>"},
		{"decimals", reflect.TypeFor[struct {
			P  Decimal  `orc:"p,decimal(10,2)"`
			Q  Decimal  `orc:"q"`
			R  *Decimal `orc:"r,decimal(5)"`
			R2 Decimal  `orc:"r2,decimal"`
		}](), "struct<p:decimal(10,2),q:decimal(38,10),r:decimal(5,0),r2:decimal(38,10)>"},
		{"text", reflect.TypeFor[struct {
			C  string  `orc:"c,char(3)"`
			V  *string `orc:"v,varchar(20)"`
			N  Named
			Ls []string `orc:"ls,varchar(4)"`
		}](), "struct<c:char(3),v:varchar(20),N:string,ls:array<varchar(4)>>"},
		{"nested", reflect.TypeFor[struct {
			In    Inner                 `orc:"in"`
			PIn   *Inner                `orc:"pin"`
			List  []Inner               `orc:"list"`
			PList []*Inner              `orc:"plist"`
			M     map[string]int64      `orc:"m"`
			MD    map[int16][]Level     `orc:"md"`
			Days  []time.Time           `orc:"days,date"`
			MDate map[string]*time.Time `orc:"mdate,date"`
		}](), "struct<in:struct<a:int,b:string>,pin:struct<a:int,b:string>,list:array<struct<a:int,b:string>>," +
			"plist:array<struct<a:int,b:string>>,m:map<string,bigint>,md:map<smallint,binary>," +
			"days:array<date>,mdate:map<string,date>>"},
		{"embedded promoted", reflect.TypeFor[withEmbedded](), "struct<E1:tinyint,x:boolean>"},
		{"embedded tagged", reflect.TypeFor[withTaggedEmbedded](), "struct<emb:struct<E1:tinyint>,x:boolean>"},
		{"empty", reflect.TypeFor[struct{}](), "struct<>"},
		{"quoted names", reflect.TypeFor[struct {
			A int `orc:"a.b"`
			B int `orc:"with space"`
		}](), "struct<`a.b`:bigint,`with space`:bigint>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := SchemaOf(tc.typ)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.String(); got != tc.want {
				t.Errorf("schema\n got %s\nwant %s", got, tc.want)
			}
			if err := s.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSchemaSkips(t *testing.T) {
	s, err := SchemaOf(reflect.TypeFor[struct {
		Keep   int `orc:"keep"`
		Skip   int `orc:"-"`
		hidden int
		Dash   int `orc:"-,"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.String(), "struct<keep:bigint,`-`:bigint>"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestSchemaErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want []string // substrings of the error
	}{
		{"chan", reflect.TypeFor[struct{ C chan int }](), []string{"field C:", "chan int", "not supported"}},
		{"func", reflect.TypeFor[struct{ F func() }](), []string{"F", "func()", "not supported"}},
		{"interface", reflect.TypeFor[struct{ I any }](), []string{"I", "interface {}", "not supported"}},
		{"complex", reflect.TypeFor[struct{ C complex128 }](), []string{"C", "complex128"}},
		{"uintptr", reflect.TypeFor[struct{ U uintptr }](), []string{"U", "uintptr"}},
		{"unsafe pointer", reflect.TypeFor[struct{ P unsafe.Pointer }](), []string{"P", "unsafe.Pointer"}},
		{"array", reflect.TypeFor[struct{ A [4]int }](), []string{"A", "[4]int"}},
		{"nested path", reflect.TypeFor[struct {
			Outer struct{ Items []struct{ Bad chan bool } }
		}](), []string{"field Outer.Items[].Bad:", "chan bool"}},
		{"map key", reflect.TypeFor[struct{ M map[Inner]int }](), []string{"M", "map key type"}},
		{"map value", reflect.TypeFor[struct{ M map[string]func() }](), []string{"M[value]", "func()"}},
		{"pointer to pointer", reflect.TypeFor[struct{ P **int }](), []string{"P", "pointer to a pointer"}},
		{"recursive", reflect.TypeFor[recursive](), []string{"recursive.Children[]", "recursive"}},
		{"recursive pointer", reflect.TypeFor[recursivePtr](), []string{"Next", "recursive"}},
		{"date on int", reflect.TypeFor[struct {
			D int `orc:"d,date"`
		}](), []string{"D", `"date"`, "time.Time", "not int"}},
		{"decimal on float", reflect.TypeFor[struct {
			D float64 `orc:"d,decimal(10,2)"`
		}](), []string{"D", "decimal", "Decimal"}},
		{"char on time", reflect.TypeFor[struct {
			T time.Time `orc:"t,char(3)"`
		}](), []string{"T", "char(3)", "string"}},
		{"bad decimal", reflect.TypeFor[struct {
			D Decimal `orc:"d,decimal(40,2)"`
		}](), []string{"D", "precision must be 1..38"}},
		{"bad scale", reflect.TypeFor[struct {
			D Decimal `orc:"d,decimal(4,5)"`
		}](), []string{"D", "scale"}},
		{"bad char", reflect.TypeFor[struct {
			S string `orc:"s,char(0)"`
		}](), []string{"S", "char(n)"}},
		{"unknown option", reflect.TypeFor[struct {
			S string `orc:"s,snappy"`
		}](), []string{"S", `"snappy"`, "unknown option"}},
		{"duplicate name", reflect.TypeFor[struct {
			A int `orc:"x"`
			B int `orc:"x"`
		}](), []string{`"x"`, "twice"}},
		{"not a struct", reflect.TypeFor[int](), []string{"not a struct"}},
		{"time is not a row", reflect.TypeFor[time.Time](), []string{"not a struct"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := SchemaOf(tc.typ)
			if err == nil {
				t.Fatalf("no error for %v", tc.typ)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			// Encoder and decoder report the same error.
			if _, err2 := NewEncoder(tc.typ); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("NewEncoder: %v, want %v", err2, err)
			}
		})
	}
}

func TestSchemaCached(t *testing.T) {
	typ := reflect.TypeFor[withEmbedded]()
	a, err := SchemaOf(typ)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SchemaOf(typ)
	if a != b {
		t.Error("SchemaOf analysed the type twice")
	}
}

func TestSliceHeaderLayout(t *testing.T) {
	s := make([]int64, 3, 5)
	h := (*sliceHeader)(unsafe.Pointer(&s))
	if h.data != unsafe.Pointer(unsafe.SliceData(s)) || h.len != 3 || h.cap != 5 {
		t.Fatalf("slice header layout differs: %+v", *h)
	}
	var u []string
	*(*sliceHeader)(unsafe.Pointer(&u)) = sliceHeader{data: unsafe.Pointer(&[]string{"x", "y"}[0]), len: 2, cap: 2}
	if len(u) != 2 || u[1] != "y" {
		t.Fatalf("writing a header gave %q", u)
	}
}

func TestDaysFromCivil(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(y, m, d int) {
		want := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
		if got := daysFromCivil(int64(y), m, d); got != want {
			t.Fatalf("daysFromCivil(%d-%d-%d) = %d, want %d", y, m, d, got, want)
		}
	}
	for _, c := range [][3]int{{1970, 1, 1}, {1969, 12, 31}, {2000, 2, 29}, {1900, 3, 1}, {0, 1, 1}, {-1, 12, 31},
		{-400, 3, 1}, {-401, 2, 28}, {9999, 12, 31}, {1582, 10, 4}, {1582, 10, 15}} {
		check(c[0], c[1], c[2])
	}
	for range 10000 {
		y := r.IntN(20000) - 10000
		m := 1 + r.IntN(12)
		d := 1 + r.IntN(28)
		check(y, m, d)
	}
}
