// Package civil is the one owner of calendar arithmetic: days since
// 1970-01-01 of a date of the proleptic Gregorian calendar (the calendar
// ORC's DATE and TIMESTAMP values count in, Footer.calendar
// PROLEPTIC_GREGORIAN), and back.
//
// # Design note
//
// The count works in eras of 400 years (146,097 days, the calendar's
// period) with years starting on 1 March, so that the leap day ends the
// year and the day of the year is a linear function of the month (the
// method of Howard Hinnant's "chrono-Compatible Low-Level Date
// Algorithms"). Years may be zero or negative (year 0 is 1 BC, as in ISO
// 8601); division rounds towards minus infinity throughout. The functions
// are exact for every year whose day count fits in an int64.
package civil

// Days returns the days from 1970-01-01 to year-month-day (negative
// before it). month is 1..12 and day 1..31; a day past the month's end
// counts on into the next month.
func Days(year, month, day int64) int64 {
	y := year
	if month <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400                     // year of the era, 0..399
	mp := (month + 9) % 12                 // months since March, 0..11
	doy := (153*mp+2)/5 + day - 1          // day of the year from 1 March, 0..365
	doe := yoe*365 + yoe/4 - yoe/100 + doy // day of the era, 0..146096
	return era*146097 + doe - 719468       // 719,468 days from 0000-03-01 to 1970-01-01
}

// Date returns the date days after 1970-01-01 (before it when negative):
// the inverse of Days.
func Date(days int64) (year, month, day int64) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// IsLeap reports whether year (zero or negative too) has 29 February.
func IsLeap(year int64) bool {
	return year%4 == 0 && (year%100 != 0 || year%400 == 0)
}

// DaysInMonth returns the number of days of month (1..12) of year: 28 to
// 31, and 31 for a month out of range.
func DaysInMonth(year, month int64) int64 {
	switch month {
	case 2:
		if IsLeap(year) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// floorDiv is a / b rounded towards minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
