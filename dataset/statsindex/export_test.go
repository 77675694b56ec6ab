package statsindex

// SetStride sets the row index stride of the indexes written from now
// on (at least 100) and returns a function that restores it.
func SetStride(n int) (restore func()) {
	old := indexStride
	indexStride = n
	return func() { indexStride = old }
}
