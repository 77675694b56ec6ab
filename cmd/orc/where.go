package main

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc/sarg"
)

// whereError is an error in the user's --where text: what is wrong, and
// the text quoted with a caret line under the part at fault.
type whereError struct {
	flag       string // the flag whose text this is; "" for --where
	msg        string
	text       string
	start, end int // the bytes of text at fault; start < 0: none found
	err        error
}

func (e *whereError) Error() string {
	var b strings.Builder
	if e.flag == "" {
		b.WriteString("--where: ")
	} else {
		b.WriteString(e.flag + ": ")
	}
	b.WriteString(e.msg)
	// The text on one line, as typed.
	line := strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(e.text)
	b.WriteString("\n    ")
	b.WriteString(line)
	if e.start >= 0 {
		b.WriteString("\n    ")
		b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(line[:e.start])))
		b.WriteString(strings.Repeat("^", max(1, utf8.RuneCountInString(line[e.start:e.end]))))
	}
	return b.String()
}

func (e *whereError) Unwrap() error { return e.err }

// userWhereError returns err, a syntax error in text or a predicate that
// does not fit the columns (sarg.ParseError, sarg.BindError, wrapped or
// not), as a whereError quoting text; other errors as they are.
func userWhereError(text string, err error) error {
	var pe *sarg.ParseError
	if errors.As(err, &pe) {
		pos := min(max(pe.Pos, 0), len(text))
		end := pos
		if end < len(text) {
			_, n := utf8.DecodeRuneInString(text[end:])
			end += n
		}
		return &whereError{msg: pe.Msg, text: text, start: pos, end: end, err: err}
	}
	var be *sarg.BindError
	if !errors.As(err, &be) {
		return err
	}
	start, end := leafSpan(text, be)
	msg := strings.TrimPrefix(be.Msg, "sarg: ")
	if be.Leaf != "" {
		msg = strings.TrimPrefix(msg, be.Leaf+": ")
		if start >= 0 {
			msg = strings.Join(strings.Fields(text[start:end]), " ") + ": " + msg
		}
	}
	// An error from one file of several says which.
	var fe *fileError
	if errors.As(err, &fe) {
		msg = fe.path + ": " + msg
	}
	return &whereError{msg: msg, text: text, start: start, end: end, err: err}
}

// reSchemaError matches orc.ParseSchema's errors.
var reSchemaError = regexp.MustCompile(`^orc: bad type at position (\d+): (.*)$`)

// userSchemaError returns an error of orc.ParseSchema on the text of a
// flag (--schema, --partitions) quoting the text with a caret.
func userSchemaError(flag, text string, err error) error {
	m := reSchemaError.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %s", flag, strings.TrimPrefix(err.Error(), "orc: "))
	}
	pos, _ := strconv.Atoi(m[1])
	pos = min(max(pos, 0), len(text))
	end := pos
	if end < len(text) {
		_, n := utf8.DecodeRuneInString(text[end:])
		end += n
	}
	return &whereError{flag: flag, msg: m[2], text: text, start: pos, end: end, err: err}
}

// maxSpanSearch bounds the text leafSpan searches: it parses every
// fragment between word boundaries.
const maxSpanSearch = 4096

// leafSpan finds the bytes of text that a binding error's leaf was written
// as: the shortest fragment that parses to that leaf alone (or its
// negation: a > 5 is NOT a <= 5) or, for an unknown column, to a leaf on
// that column. It returns -1, -1 when there is none.
func leafSpan(text string, be *sarg.BindError) (int, int) {
	if len(text) > maxSpanSearch {
		return -1, -1
	}
	space := func(c byte) bool { return strings.IndexByte(" \t\r\n", c) >= 0 }
	boundary := func(c byte) bool { return space(c) || strings.IndexByte("(),", c) >= 0 }
	var starts, ends []int
	for i := 0; i < len(text); i++ {
		if space(text[i]) {
			continue
		}
		if i == 0 || boundary(text[i-1]) || text[i] == '(' {
			starts = append(starts, i)
		}
		if i == len(text)-1 || boundary(text[i+1]) || text[i] == ')' {
			ends = append(ends, i+1)
		}
	}
	bestStart, bestEnd := -1, -1
	for _, s := range starts {
		for _, e := range ends {
			if e <= s || bestStart >= 0 && e-s >= bestEnd-bestStart {
				continue
			}
			x, err := sarg.Parse(text[s:e])
			if err != nil {
				continue
			}
			x = sarg.Normalize(x)
			if x.Op == sarg.OpNot && len(x.Children) == 1 {
				x = x.Children[0]
			}
			if x.Op != sarg.OpLeaf || x.Leaf == nil {
				continue
			}
			// A name alone is a boolean column: too little to show.
			alone := len(strings.Fields(text[s:e])) == 1 && !strings.ContainsAny(text[s:e], "=<>(")
			if be.Leaf != "" && x.Leaf.String() == be.Leaf || be.Leaf == "" && x.Leaf.Column == be.Column && !alone {
				bestStart, bestEnd = s, e
			}
		}
	}
	return bestStart, bestEnd
}
