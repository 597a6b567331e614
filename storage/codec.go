package storage

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/codebreakers/codebreakers/engine/analysis"
)

// The encodings below are the ones the bbolt file uses, exported so that
// another store (storage/postgres) keeps games in exactly the same versioned
// JSON: a game reads back identical wherever it was stored.

// EncodeFinished is a finished game as stored, every move included.
func EncodeFinished(g FinishedGame) ([]byte, error) {
	raw, err := json.Marshal(newFinishedRecord(g))
	if err != nil {
		return nil, fmt.Errorf("encode game %s: %w", g.ID, err)
	}
	return raw, nil
}

// DecodeFinished reads what EncodeFinished wrote, refusing records from a
// newer build.
func DecodeFinished(raw []byte) (FinishedGame, error) {
	rec, err := decode[finishedRecord](raw, "game")
	if err != nil {
		return FinishedGame{}, err
	}
	return rec.finishedGame(), nil
}

// EncodeListing is a finished game without its moves, as lists and
// histories show it. g must be settled (its Changes filled).
func EncodeListing(g FinishedGame) ([]byte, error) {
	raw, err := json.Marshal(newListingRecord(g))
	if err != nil {
		return nil, fmt.Errorf("encode listing of %s: %w", g.ID, err)
	}
	return raw, nil
}

// DecodeListing reads what EncodeListing wrote. Outcome is left NotPlayed.
func DecodeListing(raw []byte) (GameSummary, error) {
	rec, err := decode[listingRecord](raw, "listing")
	if err != nil {
		return GameSummary{}, err
	}
	return rec.summary(), nil
}

// TopRating is the highest rating at the table before a settled game.
func TopRating(g FinishedGame) float64 { return topRating(g.Changes) }

// CheckClaim checks the arguments of ClaimHandle as every store does.
func CheckClaim(id, handle string) error {
	switch {
	case id == "":
		return errors.New("claim handle: empty account id")
	case handle == "":
		return errors.New("claim handle: empty handle")
	case len(handle) > maxHandleBytes:
		return fmt.Errorf("claim handle: handle longer than %d bytes", maxHandleBytes)
	}
	return nil
}

// CheckGameID checks a game id given to a store.
func CheckGameID(id string) error { return checkGameID(id) }

// IsGuest reports whether an account id is a guest's: nothing is kept for
// guests.
func IsGuest(account string) bool { return isGuest(account) }

// EncodeAnalysis is a finished game's analysis as stored.
func EncodeAnalysis(rep analysis.Report) ([]byte, error) {
	raw, err := json.Marshal(analysisRecord{V: recordVersion, Report: rep})
	if err != nil {
		return nil, fmt.Errorf("encode analysis: %w", err)
	}
	return raw, nil
}

// DecodeAnalysis reads what EncodeAnalysis wrote.
func DecodeAnalysis(raw []byte) (analysis.Report, error) {
	rec, err := decode[analysisRecord](raw, "analysis")
	if err != nil {
		return analysis.Report{}, err
	}
	return rec.Report, nil
}
