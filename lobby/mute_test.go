package lobby

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/codebreakers/codebreakers/engine"
)

func chatTexts(v TableView) string {
	var b strings.Builder
	for _, l := range v.Chat {
		b.WriteString(string(l.Handle + ":" + l.Text + ";"))
	}
	return b.String()
}

func TestPlayerMutesAnotherForThemselvesOnly(t *testing.T) {
	h := testHub(t, newMemStore(), nil)
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	code := ann.View().Code
	bo, err := h.Join(ident("bo"), code)
	if err != nil {
		t.Fatal(err)
	}
	cy, err := h.Watch(ident("cy"), code)
	if err != nil {
		t.Fatal(err)
	}
	if err := ann.Chat("/mute nobody"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "Nobody") {
		t.Errorf("muting a stranger: %v", err)
	}
	if err := ann.Chat("/mute ann"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "yourself") {
		t.Errorf("muting oneself: %v", err)
	}
	if err := ann.Chat("/mute BO"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "Muted") {
		t.Fatalf("mute: %v", err)
	}
	if err := bo.Chat("spam spam"); err != nil {
		t.Fatal(err)
	}
	if err := cy.Chat("hello"); err != nil {
		t.Fatal(err)
	}
	annSees := waitView(t, ann, "cy's line", func(v TableView) bool { return strings.Contains(chatTexts(v), "hello") })
	if strings.Contains(chatTexts(annSees), "spam") {
		t.Errorf("ann muted bo but sees %q", chatTexts(annSees))
	}
	if got := chatTexts(cy.View()); !strings.Contains(got, "bo:spam spam") {
		t.Errorf("the mute leaked to another viewer: cy sees %q", got)
	}
	if err := ann.Chat("/unmute bo"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "Unmuted") {
		t.Fatalf("unmute: %v", err)
	}
	if got := chatTexts(ann.View()); !strings.Contains(got, "bo:spam spam") {
		t.Errorf("after unmute ann sees %q", got)
	}
}

func TestOperatorMuteRefusesChatAndLogs(t *testing.T) {
	var logs bytes.Buffer
	h := testHub(t, newMemStore(), func(c *Config) {
		c.Muted = func(account string) bool { return account == "SHA256:troll" }
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
		c.ChatPerMinute = 1
	})
	ann, err := h.Create(ident("ann"), TableSpec{Game: "secret", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	troll, err := h.Join(ident("troll"), ann.View().Code)
	if err != nil {
		t.Fatal(err)
	}
	if err := troll.Chat("buy gold"); !engine.IsIllegal(err) || !strings.Contains(err.Error(), "muted") {
		t.Errorf("muted chat: %v", err)
	}
	if err := ann.Chat("one"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_ = ann.Chat("too many")
	}
	if got := chatTexts(ann.View()); strings.Contains(got, "gold") {
		t.Errorf("a muted line was posted: %q", got)
	}
	h.Close()
	out := logs.String()
	for _, want := range []string{`kind="muted chat" account=SHA256:troll`, `kind="chat rate" account=SHA256:ann`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `kind="chat rate"`); n != 1 {
		t.Errorf("%d chat-rate lines for one burst, want 1", n)
	}
}
