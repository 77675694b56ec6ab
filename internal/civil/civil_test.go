package civil

import (
	"testing"
	"time"
)

// TestDaysAgainstTime checks Days, Date and DaysInMonth against the
// standard library's proleptic Gregorian calendar, every day from year
// -1000 to 3000 and a few far years.
func TestDaysAgainstTime(t *testing.T) {
	check := func(y, m, d int64) {
		t.Helper()
		want := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC).Unix() / 86400
		if got := Days(y, m, d); got != want {
			t.Fatalf("Days(%d-%d-%d) = %d, want %d", y, m, d, got, want)
		}
		if gy, gm, gd := Date(want); gy != y || gm != m || gd != d {
			t.Fatalf("Date(%d) = %d-%d-%d, want %d-%d-%d", want, gy, gm, gd, y, m, d)
		}
	}
	for y := int64(-1000); y <= 3000; y++ {
		for m := int64(1); m <= 12; m++ {
			n := DaysInMonth(y, m)
			if last := time.Date(int(y), time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); int64(last) != n {
				t.Fatalf("DaysInMonth(%d, %d) = %d, want %d", y, m, n, last)
			}
			for d := int64(1); d <= n; d++ {
				check(y, m, d)
			}
		}
	}
	for _, y := range []int64{-999_999_999, -400, -1, 0, 1, 1582, 999_999_999} {
		check(y, 2, 28)
		check(y, 12, 31)
	}
	if Days(1970, 1, 1) != 0 || Days(1969, 12, 31) != -1 {
		t.Error("epoch is not day 0")
	}
}
