package units

import "testing"

func TestUnits(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 256 << 20: "256.0 MiB", 3 << 40: "3.0 TiB", 5000 << 40: "5000.0 TiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	if Plural(1, "row") != "1 row" || Plural(0, "row") != "0 rows" || Plural(2, "column") != "2 columns" {
		t.Error("Plural")
	}
}
