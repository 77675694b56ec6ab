package bloomfilter

import "testing"

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
		if got := TrustFilters(tc.writer, tc.version); got != tc.want {
			t.Errorf("TrustFilters(%d, %q) = %v, want %v", tc.writer, tc.version, got, tc.want)
		}
	}
}
