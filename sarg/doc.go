// Package sarg holds search arguments: predicates over an ORC file's
// columns, and their evaluation against statistics (to skip files, stripes
// and row groups) and against decoded rows (to filter exactly).
//
// # Building and binding
//
// A predicate is an Expr: AND, OR and NOT over leaves, each comparing one
// column with literals (ORC's EQUALS, NULL_SAFE_EQUALS, LESS_THAN,
// LESS_THAN_EQUALS, IN, BETWEEN, IS_NULL; >, >=, <>, NOT IN and IS NOT NULL
// are NOT over a leaf), plus forms ORC lacks: LIKE and STARTS_WITH (see
// Like), comparisons of two columns (see LtCol), functions of a column
// (see Func), comparisons of any terms - arithmetic, functions and
// casts over columns and literals (see Term and TermLeaf) - and geometry
// predicates: boxes (see IntersectsBox) and exact tests against a shape
// written as WKT (see Intersects, Contains, Within). Build one with
// the functions of this package or parse it from text:
//
//	e := sarg.Or(sarg.Eq("c1", sarg.String("619sdc")),
//		sarg.And(sarg.Eq("c2", sarg.Int(100)), sarg.Eq("c3", sarg.Int(200))))
//	e, err := sarg.Parse("c1 = '619sdc' OR c2 = 100 AND c3 = 200")
//	if err != nil {
//		return err // a *sarg.ParseError: the byte offset and what was expected
//	}
//
// Bind resolves the column names against a schema and converts each
// literal into its column's domain, exactly or not at all (x < 5.5 on an
// integer column becomes x <= 5; 'abc' on an integer column is an error).
// The resulting *Bound is what the reader uses.
//
// # Truth values and "can't decide"
//
// Statistics describe a unit of rows (a file, a stripe, a row group) only
// roughly: a minimum and a maximum, whether some value is null, maybe a
// bloom filter. Evaluate therefore does not answer true or false but
// returns the set of outcomes the predicate may have on the unit's rows,
// one of ORC's seven TruthValues. YesNoNull - every outcome possible - is
// "can't decide": it is what a leaf gets when its column has no statistics
// in the unit, when the statistics are of another type than the column,
// when they cannot be trusted (a NaN among float values, inverted bounds),
// or when the literal is one statistics cannot reason about (a float NaN).
//
// A unit is skipped only when TRUE is not among the possible outcomes
// (TruthValue.IsNeeded is false): then no row of it can match. Every rule
// here errs on the side of reading: a value is only left out of the set
// when the statistics prove it impossible. Pruning is conservative because
// the two kinds of error are not alike: reading a unit that turns out to
// hold no match costs some time, while skipping a unit that holds a match
// silently returns wrong results. So a leaf that can't decide leaves its
// siblings in charge: a AND b prunes where either side proves FALSE, a OR b
// only where both do, and NOT of "can't decide" is still "can't decide".
// A predicate over columns of which only some have statistics (a partial
// index) thus prunes as well as the indexed part allows; Bound.Effective
// shows that part.
//
// Pruning can only leak extra rows, never drop rows: units that are read
// may hold no match at all (statistics are ranges, bloom filters have false
// positives), and the rows of a unit that is read are all returned unless
// the caller also filters them with Match.
//
// # Row-level filtering
//
// Matcher.Match evaluates the predicate on decoded vectors in SQL's
// three-valued logic (a row matches only when the predicate is TRUE; NULL
// does not match, and NOT NULL is NULL). EvalRow does the same for one row
// with plain, slow code and serves as the reference in tests.
//
// Match works a column at a time over the typed vectors, with no value
// boxed and no allocation per row: each term node computes a whole batch
// into its own buffers. Decimals compute in int64 where a batch's values
// fit and bounds on their magnitudes prove that no result overflows, and
// in 128 bits otherwise; comparisons and Kleene's AND
// and OR set their outcomes without branching on the data.
//
// # Concurrency
//
// Expr and Bound values are immutable and safe for concurrent use. A
// Matcher keeps scratch buffers and belongs to one goroutine.
package sarg
