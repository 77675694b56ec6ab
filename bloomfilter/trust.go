package bloomfilter

import (
	"strconv"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

// WriterCpp is the Footer.writer id of the C++ ORC writer
// (format.WriterCpp).
const WriterCpp = format.WriterCpp

// TrustFilters reports whether the bloom filters of a file may be used for
// pruning, by its writer: the Footer.writer id and Footer.software_version
// ("" when absent) of w.
//
// C++ ORC 1.6.0 to 1.6.11 and 1.7.0 hashed longs with logical instead of
// arithmetic shifts (ORC-1024), so their integer filters answer "absent" for
// values that are present. Those releases are recognised as Java and C++
// readers do: writer id 1 with no software_version (added in 1.6.11 and
// 1.7.0; the C++ writer has written bloom filters only since 1.6.0), or a
// version, ignoring any "-SNAPSHOT"-style suffix, of 1.6.0..1.6.11 or 1.7.0.
// All bloom filters of such files are distrusted, as both readers do.
func TrustFilters(w format.WriterInfo) bool {
	if w.Writer != WriterCpp {
		return true
	}
	if w.SoftwareVersion == "" {
		return false
	}
	v := w.SoftwareVersion
	if i := strings.IndexByte(v, '-'); i >= 0 {
		v = v[:i]
	}
	if v == "1.7.0" {
		return false
	}
	if rest, ok := strings.CutPrefix(v, "1.6."); ok {
		if p, err := strconv.Atoi(rest); err == nil && p >= 0 && p <= 11 && rest == strconv.Itoa(p) {
			return false
		}
	}
	return true
}

// LegacyTrust says how far the filters of a BLOOM_FILTER (legacy) stream
// may be probed.
type LegacyTrust uint8

// The answers of TrustLegacy.
const (
	LegacyNo    LegacyTrust = iota // never: the writer's hash of the values is not the reader's
	LegacyYes                      // as a BLOOM_FILTER_UTF8 filter is
	LegacyASCII                    // only with probes of ASCII bytes (strings hashed in the JVM's default charset)
)

// TrustLegacy reports whether the legacy BLOOM_FILTER filters of a column
// of the given kind hash values as this package's probes do, given the
// file's writer (the fixes its version includes, format.WriterInfo.Includes)
// and whether the filters have the early layout (see EarlyFilter). It follows Apache ORC
// Java's rules (with orc.bloom.filter.ignore.non-utf8), narrowed to what
// was verified:
//
//   - integers, float and double: trusted in both layouts (longs and
//     double bit patterns, hashed as the layout says);
//   - date (days) and binary (bytes): trusted in today's layout;
//   - string, varchar and char: trusted from writers that include
//     HIVE-12055 (UTF-8); from older ones the strings were hashed in the
//     JVM's default charset, which agrees with UTF-8 on ASCII, so only
//     ASCII probes are answered (binary likewise in the early layout);
//   - decimal (whose text form changed), timestamps (hashed in the
//     writer's local time before ORC-135) and booleans (nothing added):
//     never.
func TrustLegacy(kind orc.Kind, w format.WriterInfo, early bool) LegacyTrust {
	switch kind {
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Float, orc.Double:
		return LegacyYes
	case orc.Date:
		if !early {
			return LegacyYes
		}
	case orc.Binary:
		if !early {
			return LegacyYes
		}
		return LegacyASCII
	case orc.String, orc.Varchar, orc.Char:
		if w.Includes(format.WriterHive12055) && !early {
			return LegacyYes
		}
		return LegacyASCII
	}
	return LegacyNo
}
