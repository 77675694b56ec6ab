package main

import (
	"fmt"
	"github.com/orcgo/orc/internal/units"
	"io"
	"os"
	"strings"
	"time"
)

// isTerminal reports whether w is a character device (a terminal), the only
// place a progress bar belongs: a redirected stderr gets none.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws one self-overwriting line on a terminal: rows done, bytes
// read out of the total (when known) with a bar, and the rates. A nil
// *progress draws nothing, so callers need not check whether it is enabled.
type progress struct {
	w     io.Writer
	total int64 // input bytes, or -1 when unknown
	start time.Time
	last  time.Time
	drawn bool
}

// newProgress returns a progress line on w when w is a terminal, else nil.
func newProgress(w io.Writer, total int64) *progress {
	if !isTerminal(w) {
		return nil
	}
	now := time.Now()
	return &progress{w: w, total: total, start: now, last: now}
}

// progressDelay is how long a conversion runs before its progress line
// appears: a short one prints only its result.
const progressDelay = 2 * time.Second

// update redraws the line at most five times a second, once the work has
// taken progressDelay.
func (p *progress) update(rows, bytes int64) {
	if p == nil {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond || now.Sub(p.start) < progressDelay {
		return
	}
	p.last = now
	p.draw(rows, bytes, now)
}

// done draws the final figures and ends the line, if one was drawn.
func (p *progress) done(rows, bytes int64) {
	if p == nil || !p.drawn {
		return
	}
	p.draw(rows, bytes, time.Now())
	fmt.Fprintln(p.w)
}

// clear erases the line, for when an error message follows.
func (p *progress) clear() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
}

func (p *progress) draw(rows, bytes int64, now time.Time) {
	p.drawn = true
	secs := now.Sub(p.start).Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	fmt.Fprint(p.w, "\r\x1b[K", progressLine(rows, bytes, p.total, secs))
}

// progressLine formats the figures: "[=====>    ]  42% 1,234,567 rows
// 12.3 MiB / 29.0 MiB  250,000 rows/s  2.5 MiB/s".
func progressLine(rows, bytes, total int64, secs float64) string {
	var b strings.Builder
	if total > 0 {
		const width = 24
		frac := float64(bytes) / float64(total)
		frac = min(max(frac, 0), 1)
		fill := int(frac * width)
		b.WriteByte('[')
		b.WriteString(strings.Repeat("=", fill))
		if fill < width {
			b.WriteByte('>')
			b.WriteString(strings.Repeat(" ", width-fill-1))
		}
		fmt.Fprintf(&b, "] %3d%% ", int(frac*100))
	}
	fmt.Fprintf(&b, "%s rows  %s", groupDigits(rows), formatBytes(bytes))
	if total > 0 {
		fmt.Fprintf(&b, " / %s", formatBytes(total))
	}
	fmt.Fprintf(&b, "  %s rows/s  %s/s", groupDigits(int64(float64(rows)/secs)), formatBytes(int64(float64(bytes)/secs)))
	return b.String()
}

// groupDigits writes n with thousands separators: 3000000 is "3,000,000".
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// formatBytes writes a byte count in binary units: "512 B", "1.5 KiB",
// "117.7 MiB".
func formatBytes(n int64) string { return units.Bytes(n) }
