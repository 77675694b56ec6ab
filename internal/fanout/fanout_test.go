package fanout

import (
	"errors"
	"fmt"
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

func TestRun(t *testing.T) {
	ran := make([]bool, 4)
	err := Run(4, func(g int) bool { return g != 2 }, func(g int) (int, error) {
		ran[g] = true
		return g, nil
	})
	if err != nil || !slices.Equal(ran, []bool{true, true, false, true}) {
		t.Fatalf("ran %v, %v", ran, err)
	}
	// The lowest failing item wins, whichever goroutine ends first.
	for range 50 {
		err := Run(3, func(int) bool { return true }, func(g int) (int, error) {
			if g == 0 {
				return 0, nil
			}
			return 10 - g, fmt.Errorf("item %d: %w", 10-g, errBoom)
		})
		if err == nil || err.Error() != "item 8: boom" {
			t.Fatalf("error %v", err)
		}
	}
}

var errBoom = errors.New("boom")
