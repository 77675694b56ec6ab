//go:build !unix

package writer_test

import "time"

// cpuTime is not known on this platform.
func cpuTime() time.Duration { return 0 }
