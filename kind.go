package orc

// Kind is the kind of a node in the ORC type tree. The values equal the
// Type.Kind numbers stored in ORC files.
type Kind uint8

// The ORC type kinds.
const (
	Boolean          Kind = 0
	Byte             Kind = 1  // tinyint
	Short            Kind = 2  // smallint
	Int              Kind = 3  // int
	Long             Kind = 4  // bigint
	Float            Kind = 5  // 32-bit IEEE 754
	Double           Kind = 6  // 64-bit IEEE 754
	String           Kind = 7  // UTF-8 text
	Binary           Kind = 8  // bytes
	Timestamp        Kind = 9  // wall-clock date and time, no zone
	List             Kind = 10 // array<T>
	Map              Kind = 11 // map<K,V>
	Struct           Kind = 12 // struct<name:T,...>
	Union            Kind = 13 // uniontype<T,...>
	Decimal          Kind = 14 // decimal(precision,scale)
	Date             Kind = 15 // days since 1970-01-01
	Varchar          Kind = 16 // varchar(n): text of at most n characters
	Char             Kind = 17 // char(n): text padded to n characters
	TimestampInstant Kind = 18 // point in time ("timestamp with local time zone")
	Geometry         Kind = 19 // geometry(crs): ISO WKB bytes, planar edges
	Geography        Kind = 20 // geography(crs,algorithm): ISO WKB bytes, edges on the ellipsoid
)

var kindNames = [...]string{
	Boolean: "boolean", Byte: "tinyint", Short: "smallint", Int: "int", Long: "bigint",
	Float: "float", Double: "double", String: "string", Binary: "binary",
	Timestamp: "timestamp", List: "array", Map: "map", Struct: "struct",
	Union: "uniontype", Decimal: "decimal", Date: "date", Varchar: "varchar",
	Char: "char", TimestampInstant: "timestamp with local time zone",
	Geometry: "geometry", Geography: "geography",
}

// String returns the name of the kind in ORC's type syntax.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + itoa(int(k)) + ")"
}

// Valid reports whether k is a kind orcgo knows.
func (k Kind) Valid() bool { return k <= Geography }

// IsGeospatial reports whether k is Geometry or Geography: values are WKB
// bytes held in a BytesVector.
func (k Kind) IsGeospatial() bool { return k == Geometry || k == Geography }

// IsPrimitive reports whether k has no children.
func (k Kind) IsPrimitive() bool {
	switch k {
	case List, Map, Struct, Union:
		return false
	}
	return true
}

// CompressionKind is the codec of a file. The values equal those stored in
// the PostScript.
type CompressionKind uint8

// The compression codecs.
const (
	CompressionNone   CompressionKind = 0
	CompressionZlib   CompressionKind = 1 // raw DEFLATE
	CompressionSnappy CompressionKind = 2
	CompressionLZO    CompressionKind = 3 // read only
	CompressionLZ4    CompressionKind = 4
	CompressionZstd   CompressionKind = 5
	CompressionBrotli CompressionKind = 6 // not supported
)

var compressionNames = [...]string{"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI"}

// String returns the codec's name as ORC tools print it, such as "ZSTD".
func (c CompressionKind) String() string {
	if int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return "COMPRESSION(" + itoa(int(c)) + ")"
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
