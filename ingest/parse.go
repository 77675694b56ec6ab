package ingest

import (
	"errors"
	"fmt"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/civil"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// clip shortens a value quoted in an error: a field of 10,000 digits is
// named by its start and its length.
func clip(s string) string {
	const keep = 40
	if len(s) <= keep+20 {
		return s
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// errInvalidUTF8 is a text that is not UTF-8 where a string must be.
var errInvalidUTF8 = errors.New("not valid UTF-8")

// invalidUTF8 is the error of a text that is not UTF-8, naming the first
// bad byte (from 1).
func invalidUTF8(s string) error {
	at := 0
	for at < len(s) {
		r, n := utf8.DecodeRuneInString(s[at:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		at += n
	}
	return fmt.Errorf("%w (byte %d, 0x%02x; a string must be UTF-8: use a binary column for other bytes)", errInvalidUTF8, at+1, s[at])
}

var intBits = map[orc.Kind]int{orc.Byte: 8, orc.Short: 16, orc.Int: 32, orc.Long: 64}

// parseInt reads a decimal integer in the range of its column's width.
func parseInt(s string, k orc.Kind) (int64, error) {
	x, err := strconv.ParseInt(s, 10, intBits[k])
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q out of range for %s", clip(s), k)
		}
		return 0, fmt.Errorf("bad %s %q: not an integer", k, clip(s))
	}
	return x, nil
}

// parseFloat reads a float rounded to its column's width; NaN and Infinity
// are accepted, finite values beyond the width's range are not.
func parseFloat(s string, k orc.Kind) (float64, error) {
	bits := 64
	if k == orc.Float {
		bits = 32
	}
	x, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q out of range for %s", clip(s), k)
		}
		return 0, fmt.Errorf("bad %s %q: not a number", k, clip(s))
	}
	return x, nil
}

// parseDecimal reads a decimal exactly and brings it to the column's scale.
// It refuses values whose digits beyond the scale are not zeros (they would
// need rounding) and values of more digits than the precision.
func parseDecimal(s string, t *orc.Schema, limit orc.Int128) (orc.Int128, error) {
	v, scale, err := orc.ParseDecimal(trimDecimal(s))
	if err != nil {
		if _, ferr := strconv.ParseFloat(s, 64); strings.ContainsAny(s, "0123456789") && (ferr == nil || errors.Is(ferr, strconv.ErrRange)) {
			return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
		}
		return orc.Int128{}, fmt.Errorf("bad decimal %q", clip(s))
	}
	r, exact, ok := orc.Rescale(v, scale, t.Scale)
	if !ok {
		return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
	}
	if !exact {
		return orc.Int128{}, fmt.Errorf("decimal %q has more than %d digits after the point (%s would need rounding)", clip(s), t.Scale, t)
	}
	abs := r
	if abs.Sign() < 0 {
		abs = abs.Neg()
	}
	if abs.Cmp(limit) >= 0 {
		return orc.Int128{}, fmt.Errorf("decimal %q does not fit %s", clip(s), t)
	}
	return r, nil
}

// trimDecimal drops the digits of a plain decimal text (no exponent) that
// do not change its value, leading zeros of the integer part and trailing
// zeros of the fraction, so that "99999999999999999999999999999999999999.0"
// (39 digits, more than 128 bits unscaled) parses as the 38-digit value it
// is.
func trimDecimal(s string) string {
	if strings.ContainsAny(s, "eE") {
		return s
	}
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if t := strings.TrimLeft(s, "0"); t != s {
		if t == "" || t[0] == '.' {
			t = "0" + t
		}
		s = t
	}
	return sign + s
}

// parseBool reads true/false, 1/0 and yes/no (any case).
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "1", "yes":
		return true, nil
	case "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("bad boolean %q: want true or false, 1 or 0, yes or no", clip(s))
}

// digits reads a non-empty run of ASCII digits (at most 9).
func digits(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseYMD reads "YYYY-MM-DD".
func parseYMD(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || int64(d) > civil.DaysInMonth(int64(y), int64(m)) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// parseDate reads "YYYY-MM-DD" as days since 1970-01-01.
func parseDate(s string) (int64, error) {
	y, m, d, ok := parseYMD(s)
	if !ok {
		return 0, fmt.Errorf("bad date %q: want YYYY-MM-DD", clip(s))
	}
	return civil.Days(int64(y), int64(m), int64(d)), nil
}

// parseTimestamp reads "YYYY-MM-DD HH:MM:SS[.fraction]" (or with a T
// between date and time), the fraction one to nine digits, kept exactly. For
// TIMESTAMP it returns the wall clock read as UTC, refusing wall clocks that
// the writer zone skips (they would read back shifted); for TIMESTAMP WITH
// LOCAL TIME ZONE it returns the instant that wall clock names in zone.
func parseTimestamp(s string, instant bool, zone *time.Location) (int64, int32, error) {
	bad := func() (int64, int32, error) {
		return 0, 0, fmt.Errorf("bad timestamp %q: want YYYY-MM-DD HH:MM:SS[.fraction]", clip(s))
	}
	if len(s) < 19 || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return bad()
	}
	y, mo, d, ok := parseYMD(s[:10])
	if !ok {
		return bad()
	}
	h, ok1 := digits(s[11:13])
	mi, ok2 := digits(s[14:16])
	sec, ok3 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 59 {
		return bad()
	}
	var nanos int
	if len(s) > 19 {
		frac := s[20:]
		if s[19] != '.' || len(frac) == 0 || len(frac) > 9 {
			return bad()
		}
		n, ok := digits(frac)
		if !ok {
			return bad()
		}
		for i := len(frac); i < 9; i++ {
			n *= 10
		}
		nanos = n
	}
	if instant || zone != time.UTC {
		t := time.Date(y, time.Month(mo), d, h, mi, sec, nanos, zone)
		if instant {
			return t.Unix(), int32(nanos), nil
		}
		if t.Year() != y || int(t.Month()) != mo || t.Day() != d || t.Hour() != h || t.Minute() != mi {
			return 0, 0, fmt.Errorf("timestamp %q does not exist in time zone %s (a daylight saving gap)", clip(s), zone)
		}
	}
	return civil.Days(int64(y), int64(mo), int64(d))*86400 + int64(h*3600+mi*60+sec), int32(nanos), nil
}

// parseTimestampText reads a timestamp in the form layout gives (a Go
// time layout), or for "" in the default form of parseTimestamp or as RFC
// 3339 ("2024-03-10T01:30:00Z", "2024-03-10T01:30:00.5+05:30"). A text
// with a zone or offset names an instant: a TIMESTAMP column gets its wall
// clock in zone (the writer's, --timezone), as Apache's readers show it.
func parseTimestampText(s, layout string, instant bool, zone *time.Location) (int64, int32, error) {
	if layout == "" {
		sec, nanos, err := parseTimestamp(s, instant, zone)
		if err == nil {
			return sec, nanos, nil
		}
		t, err2 := time.Parse(time.RFC3339Nano, s)
		if err2 != nil {
			if !strings.HasPrefix(err.Error(), "bad timestamp") {
				return 0, 0, err // a well-formed wall clock the zone skips
			}
			return 0, 0, fmt.Errorf("bad timestamp %q: want YYYY-MM-DD HH:MM:SS[.fraction] or RFC 3339 (2024-03-10T01:30:00Z)", clip(s))
		}
		return instantOrWall(t, instant, zone)
	}
	zoned := strings.Contains(layout, "MST") || strings.Contains(layout, "Z07") || strings.Contains(layout, "-07")
	if !zoned {
		if instant {
			t, err := time.ParseInLocation(layout, s, zone)
			if err != nil {
				return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
			}
			return t.Unix(), int32(t.Nanosecond()), nil
		}
		// A wall clock: read in UTC, kept as it is written.
		t, err := time.ParseInLocation(layout, s, time.UTC)
		if err != nil {
			return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
		}
		if zone != time.UTC {
			// Refuse wall clocks the writer zone skips, as the default form does.
			return parseTimestamp(t.Format("2006-01-02 15:04:05.999999999"), false, zone)
		}
		return t.Unix(), int32(t.Nanosecond()), nil
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, 0, fmt.Errorf("bad timestamp %q: want the form %q (--timestamp-format)", clip(s), layout)
	}
	return instantOrWall(t, instant, zone)
}

// instantOrWall returns an instant as itself, or as its wall clock in zone
// (read as UTC) for a TIMESTAMP column.
func instantOrWall(t time.Time, instant bool, zone *time.Location) (int64, int32, error) {
	if instant {
		return t.Unix(), int32(t.Nanosecond()), nil
	}
	w := t.In(zone)
	return civil.Days(int64(w.Year()), int64(w.Month()), int64(w.Day()))*86400 + int64(w.Hour()*3600+w.Minute()*60+w.Second()),
		int32(w.Nanosecond()), nil
}
