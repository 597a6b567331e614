package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/codebreakers/codebreakers/lobby"
)

func lobbyIdentity(i int) lobby.Identity {
	return lobby.Identity{Account: fmt.Sprintf("SHA256:seeker%04d", i), Handle: fmt.Sprintf("s%04d", i),
		Addr: fmt.Sprintf("198.51.100.%d", i%250)}
}

func seekSpec(game string, players int) lobby.SeekSpec {
	return lobby.SeekSpec{Game: game, Players: players}
}

func sortDurations(d []time.Duration) { slices.Sort(d) }
