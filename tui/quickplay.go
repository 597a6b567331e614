package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine"
	"github.com/codebreakers/codebreakers/lobby"
)

// quickLevelPref names the account preference that keeps the bot level last
// chosen for quick play of a game.
func quickLevelPref(game string) string { return "quick-level/" + game }

// quickPlay asks which game (when there are several), then how strong the
// bots should be, and deals the game.
func quickPlay(a *app) tea.Cmd {
	return pickGame(a, "Quick play", chooseQuickLevel)
}

// chooseQuickLevel asks how strong the bots of a quick game should be, the
// level chosen last time (or the game's suggested one) already marked.
func chooseQuickLevel(a *app, game string) tea.Cmd {
	g, ok := a.games.Lookup(game)
	if !ok {
		return startQuickPlay(a, game, "")
	}
	info := g.Info()
	if len(info.BotLevels) < 2 {
		return startQuickPlay(a, game, info.BotLevelDefault())
	}
	level, remembered := a.quickLevel(info)
	items := make([]menuItem, 0, len(info.BotLevels))
	for i, lvl := range info.BotLevels {
		hint := "gentler: it makes mistakes you can catch"
		if i == 0 {
			hint = "plays its best"
		}
		switch {
		case lvl == level && remembered:
			hint += " · your last choice"
		case lvl == level:
			hint += " · suggested"
		}
		items = append(items, menuItem{lvl, fixed(hint), func(a *app) tea.Cmd {
			a.pop()
			return startQuickPlay(a, game, lvl)
		}})
	}
	a.push(&menuScreen{name: "Quick play · " + info.Name + " · how strong are the bots?", items: items,
		cursor: max(0, slices.Index(info.BotLevels, level))})
	return nil
}

// quickLevel is the bot level to offer first for a quick game: the one this
// session chose last, else the one the account keeps (accounts with a key),
// else the game's default (its strongest for a cooperative game). It
// reports whether it was a choice of the player's.
func (a *app) quickLevel(info engine.Info) (string, bool) {
	if l, ok := a.quickLevels[info.ID]; ok && info.HasBotLevel(l) {
		return l, true
	}
	if ps, ok := a.store.(prefStore); ok && !a.id.Guest {
		l, err := ps.Preference(a.id.Account, quickLevelPref(info.ID))
		if err != nil {
			a.logger.Warn("read quick-play level", "account", a.id.Account, "err", err)
		}
		if info.HasBotLevel(l) {
			a.quickLevels[info.ID] = l
			return l, true
		}
	}
	return info.BotLevelDefault(), false
}

// startQuickPlay deals a quick game with bots of level, remembering the
// choice for the session and, for an account with a key, for next time.
func startQuickPlay(a *app, game, level string) tea.Cmd {
	if level != "" {
		a.quickLevels[game] = level
	}
	if h, ok := a.top().(*homeScreen); ok {
		h.busy = "Dealing a new game…"
	}
	store, canKeep := a.store.(prefStore)
	account, logger := a.id.Account, a.logger
	keep := level != "" && !a.id.Guest && canKeep
	return a.openTable("Quick play", func(h hubAPI, id lobby.Identity) (tableConn, error) {
		if keep {
			if err := store.SetPreference(account, quickLevelPref(game), level); err != nil {
				logger.Warn("keep quick-play level", "account", account, "err", err)
			}
		}
		return h.QuickPlay(id, game, level)
	})
}
