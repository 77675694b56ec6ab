package bloomfilter

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
)

func TestTrustFilters(t *testing.T) {
	cases := []struct {
		writer  uint32
		version string
		want    bool
	}{
		{0, "", true}, // Java, old: no software_version but never buggy
		{0, "1.6.5", true},
		{3, "", true},
		{WriterCpp, "", false}, // bad_bloom_filter_1.6.0.orc
		{WriterCpp, "1.6.0", false},
		{WriterCpp, "1.6.5", false},
		{WriterCpp, "1.6.11", false}, // bad_bloom_filter_1.6.11.orc
		{WriterCpp, "1.6.11-SNAPSHOT", false},
		{WriterCpp, "1.6.12", true},
		{WriterCpp, "1.6.12-SNAPSHOT", true},
		{WriterCpp, "1.6.011", true},
		{WriterCpp, "1.6.", true},
		{WriterCpp, "1.7.0", false},
		{WriterCpp, "1.7.1", true},
		{WriterCpp, "1.8.0", true},
		{WriterCpp, "1.5.13", true},
		{WriterCpp, "2.0.0", true},
	}
	for _, tc := range cases {
		if got := TrustFilters(format.WriterInfo{Writer: tc.writer, SoftwareVersion: tc.version}); got != tc.want {
			t.Errorf("TrustFilters(%d, %q) = %v, want %v", tc.writer, tc.version, got, tc.want)
		}
	}
}

// TestTrustLegacyWriter: a string column's legacy filters are trusted for
// every probe only from a writer that includes HIVE-12055, as
// format.WriterInfo.Includes judges it: a file of format version 0.11
// counts as the original writer whatever its PostScript says.
func TestTrustLegacyWriter(t *testing.T) {
	for _, tc := range []struct {
		w    format.WriterInfo
		want LegacyTrust
	}{
		{format.WriterInfo{WriterVersion: format.WriterHive12055}, LegacyYes},
		{format.WriterInfo{WriterVersion: format.WriterORC135}, LegacyYes},
		{format.WriterInfo{WriterVersion: format.WriterHive8732}, LegacyASCII},
		{format.WriterInfo{WriterVersion: format.WriterORC135, Version011: true}, LegacyASCII},
	} {
		if got := TrustLegacy(orc.String, tc.w, false); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.w, got, tc.want)
		}
		if got := TrustLegacy(orc.String, tc.w, true); got != LegacyASCII {
			t.Errorf("%+v, early layout: %v, want ASCII only", tc.w, got)
		}
	}
}
