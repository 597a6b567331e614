package lobby

import (
	"fmt"
	"testing"

	"github.com/codebreakers/codebreakers/engine/textsafe"
)

// TestChatRoomKeepsTheLatestLines: a view shows the last ChatLen lines in
// order, the room never holds more than twice that, a reader's append does
// not reach it, and the author of a handle is the latest to write under it.
func TestChatRoomKeepsTheLatestLines(t *testing.T) {
	var r chatRoom
	line := func(i int, account string) ChatLine {
		return ChatLine{Handle: textsafe.Clean(account, textsafe.MaxHandle), Text: textsafe.Clean(fmt.Sprint("line ", i), 0),
			author: Identity{Account: account + fmt.Sprint(i), Handle: account}}
	}
	for i := range 2*ChatLen + 1 {
		r.add(line(i, []string{"ann", "bob"}[i%2]))
	}
	got := r.recent()
	if len(got) != ChatLen || got[0].Text.String() != fmt.Sprint("line ", ChatLen+1) || got[ChatLen-1].Text.String() != fmt.Sprint("line ", 2*ChatLen) {
		t.Errorf("recent holds %d lines from %q to %q", len(got), got[0].Text, got[len(got)-1].Text)
	}
	if len(r.chatLines) > 2*ChatLen {
		t.Errorf("the room holds %d lines, more than twice ChatLen", len(r.chatLines))
	}
	// A room with room to grow: a reader appending to its view must not
	// write where the room's next line goes.
	var small chatRoom
	for i := range 3 {
		small.add(line(i, "ann"))
	}
	view := small.recent()
	small.add(line(3, "bob"))
	_ = append(view, line(-1, "eve"))
	if _, ok := small.author("bob"); !ok {
		t.Error("a reader's append overwrote the room's latest line")
	}
	if id, ok := r.author("BOB"); !ok || id.Account != fmt.Sprint("bob", 2*ChatLen-1) {
		t.Errorf("bob is %+v, %v; want the author of the latest line", id, ok)
	}
}
