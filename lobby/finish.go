package lobby

import (
	"errors"
	"time"

	"github.com/codebreakers/codebreakers/storage"
)

// Notices while a finished game waits for the records database.
const (
	savingNotice = "Saving the result…"
	slowNotice   = "The records database is not answering, so this game is not in your history yet. " +
		"It is kept safe on this server and will be recorded as soon as the database is back."
)

// finishRetry says how a finish the records database could not take is
// retried: the first retry waits base, each further one twice as long up
// to max; after slow the players are told.
type finishRetry struct{ base, max, slow time.Duration }

// defaultFinishRetry is the hub's; tests shorten it.
func defaultFinishRetry() finishRetry {
	return finishRetry{base: 250 * time.Millisecond, max: 5 * time.Second, slow: 3 * time.Second}
}

// finishLater keeps trying to store a finished game that the Store refused
// as unavailable (storage.ErrUnavailable), until it is stored or the hub
// closes. Nothing is lost meanwhile: the game's live log stays until the
// finish is stored, and a restarted server records it from there. The
// table's notice says when it is taking long and when it is done.
func (h *Hub) finishLater(t *table, fg storage.FinishedGame) {
	h.bg.Add(1)
	go func() {
		defer h.bg.Done()
		r := h.finishRetry
		began, told, wait := time.Now(), false, r.base
		for {
			if !sleep(wait, h.quit) {
				return
			}
			err := h.cfg.Store.FinishGame(fg)
			if err == nil || errors.Is(err, storage.ErrGameExists) {
				h.log.Info("finished game saved after a wait", "game_id", fg.ID, "waited", time.Since(began).Round(time.Millisecond).String())
				t.post(func() error { t.setUnsaved(fg.ID, ""); return nil })
				return
			}
			if !errors.Is(err, storage.ErrUnavailable) {
				h.log.Error("finish game", "game_id", fg.ID, "err", err)
				return
			}
			if !told && time.Since(began) >= r.slow {
				told = true
				h.log.Warn("records database unreachable; a finished game waits to be saved", "game_id", fg.ID, "err", err)
				t.post(func() error { t.setUnsaved(fg.ID, slowNotice); return nil })
			}
			wait = min(2*wait, r.max)
		}
	}()
}

// setUnsaved says why game id is not saved yet ("" once it is), if the
// table still shows its end.
func (t *table) setUnsaved(id, why string) {
	if t.phase == Finished && t.gameID == id {
		t.unsaved = why
		t.dirty = true
	}
}
