package orcarrow

import "unsafe"

// castSlice views the first n elements of b, which must hold at least
// n*sizeof(T) bytes aligned for T, as a []T. Buffers from Arrow allocators
// are 64-byte aligned; Go slices of int64 and float64 are 8-byte aligned.
func castSlice[T any](b []byte, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// sizeOf returns the size of a T in bytes.
func sizeOf[T any]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}
