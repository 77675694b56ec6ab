package sarg

import (
	"fmt"
	"strings"

	"github.com/orcgo/orc"
)

// unknownColumnHint is what the error of an unknown column adds: the
// nearest field names of the struct n it was looked for in (parts[:i] the
// path to n), else n's fields and, for a plain name, the reminder that a
// string takes single quotes (name = Alice reads Alice as a column).
func unknownColumnHint(n *orc.Schema, parts []string, i int) string {
	want := strings.ToLower(parts[i])
	var near []string
	best := 3
	for _, f := range n.FieldNames {
		d := editDistance(want, strings.ToLower(f))
		if d > max(1, len(want)/3) || d > best {
			continue
		}
		if d < best {
			best, near = d, near[:0]
		}
		near = append(near, Col(append(append([]string(nil), parts[:i]...), f)...))
	}
	if len(near) > 0 && len(near) <= 3 {
		return fmt.Sprintf(" (did you mean %q?)", strings.Join(near, `" or "`))
	}
	cols := n.FieldNames
	more := ""
	if len(cols) > 20 {
		cols, more = cols[:20], fmt.Sprintf(", ... (%d in all)", len(n.FieldNames))
	}
	hint := fmt.Sprintf(" (columns: %s%s", strings.Join(cols, ", "), more)
	if len(parts) == 1 {
		hint += fmt.Sprintf("; a string takes single quotes, as '%s'", parts[0])
	}
	return hint + ")"
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
