package reader_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/orcgo/orc/reader"
)

// TestScanStatsAddEveryField checks that Add sums every field of
// ScanStats (the largest of PeakReadsInFlight), so that a field added
// later is not left out of the sums of datasets and tables.
func TestScanStatsAddEveryField(t *testing.T) {
	var one reader.ScanStats
	v := reflect.ValueOf(&one).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			if f.Type() == reflect.TypeFor[time.Duration]() {
				f.SetInt(int64(time.Millisecond))
			} else {
				f.SetInt(1)
			}
		default:
			t.Fatalf("ScanStats.%s is a %s: teach this test how Add combines it", v.Type().Field(i).Name, f.Type())
		}
	}
	var sum reader.ScanStats
	sum.Add(one)
	sum.Add(one)
	got := reflect.ValueOf(sum)
	for i := range got.NumField() {
		name := v.Type().Field(i).Name
		want := 2 * v.Field(i).Int()
		if name == "PeakReadsInFlight" {
			want = v.Field(i).Int()
		}
		if got.Field(i).Int() != want {
			t.Errorf("after adding twice, %s = %d, want %d", name, got.Field(i).Int(), want)
		}
	}
}
