package storage

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Bounds on a preference, so the bucket holds only small things.
const (
	maxPrefName  = 64
	maxPrefValue = 64
)

func prefKey(account, name string) []byte {
	return append(append([]byte(account), 0), name...)
}

// Preference returns what account set for name, or "" when it never set
// it.
func (db *DB) Preference(account, name string) (string, error) {
	var val []byte
	err := db.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(bucketPrefs)); b != nil {
			val = bytes.Clone(b.Get(prefKey(account, name)))
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("read preference %q of %q: %w", name, account, err)
	}
	return string(val), nil
}

// SetPreference keeps value as account's name (an empty value forgets it).
// Durable on return.
func (db *DB) SetPreference(account, name, value string) error {
	switch {
	case account == "" || name == "":
		return fmt.Errorf("set preference: account and name are required")
	case len(name) > maxPrefName || len(value) > maxPrefValue:
		return fmt.Errorf("set preference %q: longer than %d bytes", name, maxPrefValue)
	}
	err := db.write(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketPrefs))
		if value == "" {
			return b.Delete(prefKey(account, name))
		}
		return b.Put(prefKey(account, name), []byte(value))
	})
	if err != nil {
		return fmt.Errorf("set preference %q of %q: %w", name, account, err)
	}
	return nil
}
