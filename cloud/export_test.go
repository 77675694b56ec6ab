package orccloud

// SetListPageSize sets the list page size for a test and returns the
// function that restores it.
func SetListPageSize(n int) func() {
	old := listPageSize
	listPageSize = n
	return func() { listPageSize = old }
}
