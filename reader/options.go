package reader

import (
	"fmt"
	"time"
)

// Option configures Open.
type Option func(*config) error

type config struct {
	maxTailSize     int64
	maxStripeFooter int64
	defaultZone     *time.Location
}

func defaultConfig() config {
	return config{
		maxTailSize:     256 << 20,
		maxStripeFooter: 64 << 20,
		defaultZone:     time.UTC,
	}
}

// WithMaxTailSize caps the bytes of the file footer and metadata sections,
// compressed and decompressed. Default 256 MiB; at least 1 KiB.
func WithMaxTailSize(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 {
			return fmt.Errorf("orc: WithMaxTailSize(%d): must be at least 1024", n)
		}
		c.maxTailSize = n
		return nil
	}
}

// WithMaxStripeFooterSize caps the decompressed size of a stripe footer.
// Default 64 MiB; at least 1 KiB.
func WithMaxStripeFooterSize(n int64) Option {
	return func(c *config) error {
		if n < 1<<10 {
			return fmt.Errorf("orc: WithMaxStripeFooterSize(%d): must be at least 1024", n)
		}
		c.maxStripeFooter = n
		return nil
	}
}

// WithDefaultTimeZone sets the zone assumed for TIMESTAMP columns of stripes
// that do not name their writer's zone (files of old writers). Default UTC.
func WithDefaultTimeZone(loc *time.Location) Option {
	return func(c *config) error {
		if loc == nil {
			return fmt.Errorf("orc: WithDefaultTimeZone(nil)")
		}
		c.defaultZone = loc
		return nil
	}
}

// ScanOption configures a BatchReader.
type ScanOption func(*scanConfig) error

type scanConfig struct {
	columns   []string
	allCols   bool
	batchSize int
	coalesce  int64
}

func defaultScanConfig() scanConfig {
	return scanConfig{allCols: true, batchSize: 1024, coalesce: 1 << 20}
}

// WithColumns selects the columns to read by name; nested struct fields are
// named with dots ("a.b.c"). The batch holds the selected columns in file
// order, with structs keeping only their selected fields. Default: every
// column (except encrypted ones).
func WithColumns(names ...string) ScanOption {
	return func(c *scanConfig) error {
		c.columns = append([]string(nil), names...)
		c.allCols = false
		return nil
	}
}

// WithBatchSize sets the most rows a batch holds. Default 1024; 1 to 1<<20.
func WithBatchSize(n int) ScanOption {
	return func(c *scanConfig) error {
		if n < 1 || n > 1<<20 {
			return fmt.Errorf("orc: WithBatchSize(%d): must be 1..%d", n, 1<<20)
		}
		c.batchSize = n
		return nil
	}
}

// WithCoalesceGap sets how far apart two byte ranges of a stripe may be and
// still be fetched with one read. Larger values mean fewer, larger reads
// (good for object stores). Default 1 MiB; 0 to 64 MiB.
func WithCoalesceGap(n int64) ScanOption {
	return func(c *scanConfig) error {
		if n < 0 || n > 64<<20 {
			return fmt.Errorf("orc: WithCoalesceGap(%d): must be 0..%d", n, 64<<20)
		}
		c.coalesce = n
		return nil
	}
}
