package bloomfilter

import (
	"strconv"
	"strings"
)

// WriterCpp is the Footer.writer id of the C++ ORC writer.
const WriterCpp = 1

// TrustFilters reports whether the bloom filters of a file may be used for
// pruning, given its Footer.writer id and Footer.software_version ("" when
// absent).
//
// C++ ORC 1.6.0 to 1.6.11 and 1.7.0 hashed longs with logical instead of
// arithmetic shifts (ORC-1024), so their integer filters answer "absent" for
// values that are present. Those releases are recognised as Java and C++
// readers do: writer id 1 with no software_version (added in 1.6.11 and
// 1.7.0; the C++ writer has written bloom filters only since 1.6.0), or a
// version, ignoring any "-SNAPSHOT"-style suffix, of 1.6.0..1.6.11 or 1.7.0.
// All bloom filters of such files are distrusted, as both readers do.
func TrustFilters(writer uint32, softwareVersion string) bool {
	if writer != WriterCpp {
		return true
	}
	if softwareVersion == "" {
		return false
	}
	v := softwareVersion
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
