// Package fanout deals work to goroutines and runs it: the column-parallel
// writer and reader deal a table's top-level columns to groups by cost
// (Deal), then run the groups, or let goroutines claim the columns, on a
// Team for every batch.
package fanout

import "slices"

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
