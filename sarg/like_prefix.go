package sarg

// LikePrefixRange returns the byte range every value matching a LIKE
// pattern lies in (spec.md 7.17): the pattern's literal prefix, the
// characters before its first wildcard with escapes resolved, and the least
// string above every string starting with it (bounded false when there is
// none: the prefix is empty or all 0xFF bytes). escape is the pattern's
// escape character ("" for none); bytes says the column is binary, whose
// characters are bytes. An empty prefix means the pattern constrains no
// range. The error is the one a malformed pattern gives at bind time.
func LikePrefixRange(pattern, escape string, bytes bool) (prefix, succ string, bounded bool, err error) {
	p, err := compileLike(pattern, escape, bytes)
	if err != nil {
		return "", "", false, err
	}
	succ, bounded = prefixSuccessor(p.prefix)
	return p.prefix, succ, bounded, nil
}
