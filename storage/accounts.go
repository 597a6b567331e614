package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// maxHandleBytes bounds a stored handle; the lobby's allow-list is far
// stricter, this only keeps garbage out of the key space.
const maxHandleBytes = 64

// handleKey is the handles bucket key: handles are unique ignoring case.
func handleKey(handle string) []byte { return []byte(strings.ToLower(handle)) }

// Account returns the account with that id, or an error matching
// ErrNotFound for an id never seen.
func (db *DB) Account(id string) (Account, error) {
	var raw []byte
	err := db.view(func(tx *bolt.Tx) error {
		raw = bytes.Clone(tx.Bucket([]byte(bucketAccounts)).Get([]byte(id)))
		return nil
	})
	if err != nil {
		return Account{}, fmt.Errorf("read account %q: %w", id, err)
	}
	if raw == nil {
		return Account{}, fmt.Errorf("account %q: %w", id, ErrNotFound)
	}
	rec, err := decode[accountRecord](raw, "account "+id)
	if err != nil {
		return Account{}, err
	}
	return rec.account(), nil
}

// ClaimHandle gives the account id the handle, creating the account when it
// is new or renaming it (which frees its old handle). It fails with an error
// matching ErrHandleTaken when another account holds the handle in any
// letter case. Durable on return.
func (db *DB) ClaimHandle(id, handle string) (Account, error) {
	if err := CheckClaim(id, handle); err != nil {
		return Account{}, err
	}
	now := time.Now().UTC()
	key := handleKey(handle)
	var claimed Account
	err := db.write(func(tx *bolt.Tx) error {
		accounts := tx.Bucket([]byte(bucketAccounts))
		handles := tx.Bucket([]byte(bucketHandles))
		if owner := handles.Get(key); owner != nil && string(owner) != id {
			return reject(fmt.Errorf("claim handle %q: %w", handle, ErrHandleTaken))
		}
		acct := Account{ID: id, Handle: handle, Created: now, LastSeen: now}
		var oldKey []byte
		if raw := accounts.Get([]byte(id)); raw != nil {
			old, err := decode[accountRecord](raw, "account "+id)
			if err != nil {
				return reject(err)
			}
			acct.Created = old.Created
			if k := handleKey(old.Handle); !bytes.Equal(k, key) && string(handles.Get(k)) == id {
				oldKey = k
			}
		}
		val, err := json.Marshal(accountRecord{V: recordVersion, ID: acct.ID, Handle: acct.Handle,
			Created: acct.Created, LastSeen: acct.LastSeen})
		if err != nil {
			return reject(fmt.Errorf("encode account %q: %w", id, err))
		}
		// Checks done; now change things.
		if oldKey != nil {
			if err := handles.Delete(oldKey); err != nil {
				return err
			}
		}
		if err := handles.Put(key, []byte(id)); err != nil {
			return err
		}
		if err := accounts.Put([]byte(id), val); err != nil {
			return err
		}
		claimed = acct
		return nil
	})
	if err != nil {
		return Account{}, err
	}
	return claimed, nil
}

// Touch records that the account was seen now. It fails with an error
// matching ErrNotFound for an unknown account.
func (db *DB) Touch(id string) error {
	now := time.Now().UTC()
	return db.write(func(tx *bolt.Tx) error {
		accounts := tx.Bucket([]byte(bucketAccounts))
		raw := accounts.Get([]byte(id))
		if raw == nil {
			return reject(fmt.Errorf("touch account %q: %w", id, ErrNotFound))
		}
		rec, err := decode[accountRecord](raw, "account "+id)
		if err != nil {
			return reject(err)
		}
		rec.LastSeen = now
		val, err := json.Marshal(rec)
		if err != nil {
			return reject(fmt.Errorf("encode account %q: %w", id, err))
		}
		return accounts.Put([]byte(id), val)
	})
}

// HandleOwner returns the id of the account holding handle (in any letter
// case), or an error matching ErrNotFound.
func (db *DB) HandleOwner(handle string) (string, error) {
	var owner []byte
	err := db.view(func(tx *bolt.Tx) error {
		owner = bytes.Clone(tx.Bucket([]byte(bucketHandles)).Get(handleKey(handle)))
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("look up handle %q: %w", handle, err)
	}
	if owner == nil {
		return "", fmt.Errorf("handle %q: %w", handle, ErrNotFound)
	}
	return string(owner), nil
}

// EachAccount calls fn for every account, in id order, reading a page at a
// time so that no read transaction stays open long. An error from fn stops
// the walk and is returned.
func (db *DB) EachAccount(fn func(Account) error) error {
	var after []byte
	for {
		var recs []accountRecord
		err := db.view(func(tx *bolt.Tx) error {
			c := tx.Bucket([]byte(bucketAccounts)).Cursor()
			k, v := c.First()
			if after != nil {
				if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && len(recs) < exportPage; k, v = c.Next() {
				rec, err := decode[accountRecord](v, "account "+string(k))
				if err != nil {
					return err
				}
				recs = append(recs, rec)
				after = bytes.Clone(k)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read accounts: %w", err)
		}
		for _, r := range recs {
			if err := fn(r.account()); err != nil {
				return err
			}
		}
		if len(recs) < exportPage {
			return nil
		}
	}
}
