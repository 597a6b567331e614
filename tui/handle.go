package tui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/codebreakers/codebreakers/engine/textsafe"
	"github.com/codebreakers/codebreakers/storage"
	"github.com/codebreakers/codebreakers/tui/widget"
)

// handleScreen is the first screen of a new key: it asks for a handle and
// claims it in storage.
type handleScreen struct {
	plainScreen

	input   widget.Field
	loading bool // looking up the account of this key
	saving  bool
	err     string
	// renaming is a signed-in player changing their handle (from their
	// profile) rather than a new key choosing its first one.
	renaming bool
}

type accountLoadedMsg struct {
	acct storage.Account
	err  error
}

type handleClaimedMsg struct {
	acct storage.Account
	err  error
}

func newHandleScreen(a *app, lookup bool) *handleScreen {
	return &handleScreen{input: newInput("your handle", 16), loading: lookup && a.store != nil}
}

// newRenameScreen asks a signed-in player for a new handle, starting from
// the one they have: a handle chosen in haste (a typo) need not be kept.
func newRenameScreen(a *app) *handleScreen {
	s := &handleScreen{input: newInput("your new handle", 16), renaming: true}
	s.input.SetValue(a.id.Handle)
	return s
}

// init looks the account up: a returning key skips this screen.
func (s *handleScreen) init(a *app) tea.Cmd {
	if !s.loading {
		return nil
	}
	store, id := a.store, a.id.Account
	return func() tea.Msg {
		acct, err := store.Account(id)
		return accountLoadedMsg{acct: acct, err: err}
	}
}

func (s *handleScreen) title(*app) string {
	if s.renaming {
		return "Change handle"
	}
	return "Codebreakers · welcome"
}

func (s *handleScreen) capturing() bool { return true }

func (s *handleScreen) setError(msg string) { s.err = msg; s.saving = false }

func (s *handleScreen) update(a *app, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case accountLoadedMsg:
		s.loading = false
		switch {
		case msg.err == nil && msg.acct.Handle != "":
			a.id.Handle = msg.acct.Handle
			return a.signedIn()
		case msg.err != nil && !errors.Is(msg.err, storage.ErrNotFound):
			a.logger.Warn("account lookup", "account", a.id.Account, "err", msg.err)
			s.err = "Your account could not be read just now; choose a handle, or reconnect later."
		}
		return nil
	case handleClaimedMsg:
		s.saving = false
		switch {
		case errors.Is(msg.err, storage.ErrHandleTaken):
			s.err = "That handle is taken; try another."
		case msg.err != nil:
			s.err = a.userError(msg.err, "That handle could not be saved; try again in a moment.")
		case s.renaming:
			// Back to the profile, under the new handle.
			a.id.Handle = msg.acct.Handle
			a.pop()
			if _, ok := a.top().(*profileScreen); ok {
				a.pop()
				return a.openProfile(a.id.Handle)
			}
		default:
			a.id.Handle = msg.acct.Handle
			return a.signedIn()
		}
		return nil
	case tea.KeyPressMsg:
		if s.loading || s.saving {
			return nil
		}
		if key.Matches(msg, a.km.enter) {
			return s.submit(a)
		}
		if key.Matches(msg, a.km.back) {
			if s.renaming {
				a.pop() // the handle stays as it was
				return nil
			}
			s.input.SetValue("")
			s.err = ""
			return nil
		}
	}
	s.input.Update(msg)
	return nil
}

func (s *handleScreen) submit(a *app) tea.Cmd {
	chosen, err := textsafe.Handle(strings.TrimSpace(s.input.Value()))
	if err != nil {
		s.err = err.Error()
		return nil
	}
	h := chosen.String()
	// Guests and bots are named guest-… and bot-…; nobody may pose as one.
	if l := strings.ToLower(h); strings.HasPrefix(l, "guest") || strings.HasPrefix(l, "bot-") {
		s.err = "Handles starting with guest or bot- are kept for visitors and bots; choose another."
		return nil
	}
	s.err = ""
	if a.store == nil || a.id.Guest || a.id.Account == "" {
		a.id.Handle = h
		return a.signedIn()
	}
	if a.hub != nil {
		allow := a.hub.AllowClaim // a new key's first handle makes an account
		if s.renaming {
			allow = a.hub.AllowRename
		}
		if err := allow(a.id); err != nil {
			s.err = a.userError(err, "")
			return nil
		}
	}
	s.saving = true
	store, id := a.store, a.id.Account
	return func() tea.Msg {
		acct, err := store.ClaimHandle(id, h)
		return handleClaimedMsg{acct: acct, err: err}
	}
}

func (s *handleScreen) body(a *app, w, h int) []string {
	var b strings.Builder
	if s.renaming {
		b.WriteString("\n  Choose a new handle: 2 to 16 letters, digits, _ or -.\n")
		b.WriteString("  Your old one is freed for others; finished games keep the names they were played under.\n\n")
		return s.fieldAndStatus(a, &b, w, h)
	}
	b.WriteString("\n  " + a.st.strong.Render("Welcome to Codebreakers.") + "\n\n")
	if s.loading {
		b.WriteString("  Looking up your key…\n")
		return wrapBlock(b.String(), w, h)
	}
	b.WriteString("  Choose a handle: 2 to 16 letters, digits, _ or -.\n")
	b.WriteString("  Other players see it at the table; it stays yours for this SSH key.\n")
	b.WriteString("  You can change it later, from My profile.\n\n")
	return s.fieldAndStatus(a, &b, w, h)
}

// fieldAndStatus ends the screen: the field, then saving or the error.
func (s *handleScreen) fieldAndStatus(a *app, b *strings.Builder, w, h int) []string {
	input := s.input // drawn in the width there is, without changing the field
	input.Width = max(10, min(30, w-8))
	b.WriteString("  " + input.View() + "\n\n")
	switch {
	case s.saving:
		b.WriteString("  " + a.st.dim.Render("Saving…"))
	case s.err != "":
		b.WriteString("  " + a.st.errText.Render("! "+s.err))
	}
	return wrapBlock(b.String(), w, h)
}

func (s *handleScreen) shortHelp(a *app) []key.Binding {
	if s.renaming {
		return []key.Binding{withHelp(a.km.enter, "enter", "save"), withHelp(a.km.back, "esc", "keep the old one"), a.km.forceQuit}
	}
	return []key.Binding{withHelp(a.km.enter, "enter", "save"), withHelp(a.km.back, "esc", "clear"), a.km.forceQuit}
}
