package ingest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// TestParseTimestampProperty checks the digit parser against package time
// on random wall clocks in years 1..9999.
func TestParseTimestampProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lo := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	ny, _ := time.LoadLocation("America/New_York")
	for i := 0; i < 20000; i++ {
		sec := lo + rng.Int64N(hi-lo+1)
		nanos := int32(rng.IntN(1e9))
		if i%3 == 0 {
			nanos = int32(rng.IntN(1000)) * 1e6
		}
		tm := time.Unix(sec, int64(nanos)).UTC()
		text := tm.Format("2006-01-02 15:04:05.999999999")
		gs, gn, err := parseTimestamp(text, false, time.UTC)
		if err != nil || gs != sec || gn != nanos {
			t.Fatalf("parseTimestamp(%q) = %d.%09d, %v; want %d.%09d", text, gs, gn, err, sec, nanos)
		}
		if back := string(reader.AppendTimestamp(nil, gs, gn)); strings.TrimSuffix(back, ".0") != text {
			t.Fatalf("%q prints back as %q", text, back)
		}
		days, err := parseDate(text[:10])
		if want := floorDiv(sec, 86400); err != nil || days != want {
			t.Fatalf("parseDate(%q) = %d, %v; want %d", text[:10], days, err, want)
		}
		// Instants: the wall clock read in the zone.
		is, in, err := parseTimestamp(text, true, ny)
		want := time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), int(nanos), ny)
		if err != nil || is != want.Unix() || in != nanos {
			t.Fatalf("instant %q in New York = %d, %v; want %d", text, is, err, want.Unix())
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func TestParseTextRejects(t *testing.T) {
	for _, s := range []string{"2021-1-01", "2021-01-1", "21-01-01", "2021/01/01", "2021-00-10", "2021-01-32",
		"2100-02-29", "2021-01-01 ", "+202-01-01", "2021-01-01x"} {
		if _, err := parseDate(s); err == nil {
			t.Errorf("parseDate(%q): no error", s)
		}
	}
	for _, s := range []string{"2021-01-01", "2021-01-01 00:00", "2021-01-01 00:00:60", "2021-01-01 00:60:00",
		"2021-01-01 00:00:00.", "2021-01-01 00:00:00,5", "2021-01-01 00:00:00.1234567890", "2021-01-01_00:00:00",
		"2021-01-01 0a:00:00", "2021-01-01 00:00:00Z", "2021-01-01 00:00:00.-1"} {
		if _, _, err := parseTimestamp(s, false, time.UTC); err == nil {
			t.Errorf("parseTimestamp(%q): no error", s)
		}
	}
	if _, _, err := parseTimestamp("2000-02-29 00:00:00", false, time.UTC); err != nil {
		t.Errorf("leap day: %v", err)
	}
}

func TestParseDecimal(t *testing.T) {
	d := orc.MustParseSchema("decimal(5,2)")
	b := newBuilder(d, orc.NewVector(d, 1), time.UTC)
	for _, c := range []struct{ in, want string }{
		{"1", "1.00"}, {"-1.5", "-1.50"}, {".5", "0.50"}, {"999.99", "999.99"}, {"-999.99", "-999.99"},
		{"1.2300", "1.23"}, {"1.5e2", "150.00"}, {"12345e-4", "ERR"}, {"1000", "ERR"},
		{"0.001", "ERR"}, {"abc", "ERR"}, {"1e400", "ERR"}, {"-0", "0.00"}, {"+7", "7.00"},
	} {
		v, err := parseDecimal(c.in, d, b.limit())
		got := "ERR"
		if err == nil {
			got = orc.FormatDecimal(v, 2)
		}
		if got != c.want {
			t.Errorf("parseDecimal(%q) = %s (%v), want %s", c.in, got, err, c.want)
		}
	}
}
