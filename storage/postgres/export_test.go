package postgres

import "time"

// SetHealthProbeEvery sets how often WriteHealth probes while writes fail
// (negative: at every call), so tests need not wait out the real pause.
func SetHealthProbeEvery(db *DB, d time.Duration) {
	db.health.mu.Lock()
	db.health.probeEvery = d
	db.health.mu.Unlock()
}
