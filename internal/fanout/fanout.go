// Package fanout deals work to goroutines and runs it: the column-parallel
// writer and reader deal a table's top-level columns to groups by cost, then
// run each group on a goroutine of its own for every batch.
package fanout

import (
	"slices"
	"sync"
)

// Deal assigns each item to one of n groups, the costliest item first, each
// to the group with the least cost so far (longest processing time first),
// and writes the item's group into group, which has len(cost) entries. Ties
// keep the items' order, so the same costs always give the same groups.
func Deal(cost []float64, n int, group []int) {
	order := make([]int, len(cost))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case cost[a] > cost[b]:
			return -1
		case cost[a] < cost[b]:
			return 1
		}
		return 0
	})
	loads := make([]float64, n)
	for _, i := range order {
		g := 0
		for k := 1; k < n; k++ {
			if loads[k] < loads[g] {
				g = k
			}
		}
		group[i] = g
		loads[g] += cost[i]
	}
}

// Run calls run(g) for every group g in 0..n-1 that busy accepts, each on
// a goroutine of its own, and waits for all of them. run returns the item
// that failed and its error (any item and nil on success); Run returns the
// error of the lowest failing item, so the result does not depend on
// timing. The caller only waits: a goroutine just started sits in its
// creator's next-to-run slot, which other processors do not take from a
// running one at once, so running a group on the caller would often leave
// another group waiting for it.
func Run(n int, busy func(g int) bool, run func(g int) (item int, err error)) error {
	type result struct {
		item int
		err  error
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	for g := 0; g < n; g++ {
		if !busy(g) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			item, err := run(g)
			results[g] = result{item, err}
		}()
	}
	wg.Wait()
	var first result
	for _, r := range results {
		if r.err != nil && (first.err == nil || r.item < first.item) {
			first = r
		}
	}
	return first.err
}
