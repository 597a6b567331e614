package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/codebreakers/codebreakers/engine/analysis"
)

// analysisRecord is a stored analysis. The report carries its own
// analysis.Version; a reader that finds another version computes it again.
type analysisRecord struct {
	V      int             `json:"v"`
	Report analysis.Report `json:"report"`
}

func (r analysisRecord) version() int { return r.V }

// SaveAnalysis stores the analysis of finished game id, replacing any
// earlier one. It fails with an error matching ErrNotFound when no such
// game has finished. Durable on return.
func (db *DB) SaveAnalysis(id string, rep analysis.Report) error {
	val, err := json.Marshal(analysisRecord{V: recordVersion, Report: rep})
	if err != nil {
		return fmt.Errorf("save analysis %s: encode: %w", id, err)
	}
	key := []byte(id)
	return db.write(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketGames)).Get(key) == nil {
			return reject(fmt.Errorf("save analysis %s: %w", id, ErrNotFound))
		}
		return tx.Bucket([]byte(bucketAnalyses)).Put(key, val)
	})
}

// Analysis returns the stored analysis of finished game id, or an error
// matching ErrNotFound when it has none yet.
func (db *DB) Analysis(id string) (analysis.Report, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketAnalyses)).Get([]byte(id)))
		return nil
	})
	if err != nil {
		return analysis.Report{}, fmt.Errorf("read analysis %s: %w", id, err)
	}
	if raw == nil {
		return analysis.Report{}, fmt.Errorf("analysis %s: %w", id, ErrNotFound)
	}
	rec, err := decode[analysisRecord](raw, "analysis "+id)
	if err != nil {
		return analysis.Report{}, err
	}
	return rec.Report, nil
}
