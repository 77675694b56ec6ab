package fanout

import (
	"slices"
	"testing"
)

func TestDeal(t *testing.T) {
	group := make([]int, 6)
	Deal([]float64{1, 9, 4, 4, 2, 8}, 2, group)
	// 9 -> 0, 8 -> 1, 4 -> 1 (12), 4 -> 0 (13), 2 -> 1 (14), 1 -> 0 (14)
	if want := []int{0, 0, 1, 0, 1, 1}; !slices.Equal(group, want) {
		t.Fatalf("groups %v, want %v", group, want)
	}
	one := make([]int, 3)
	Deal([]float64{5, 5, 5}, 1, one)
	if !slices.Equal(one, []int{0, 0, 0}) {
		t.Fatalf("one group: %v", one)
	}
}
