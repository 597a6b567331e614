package ifthen

// EventKind is one of the ten kinds of Event card. The Event deck holds two
// copies of each: card id c is kind c/2.
type EventKind int

// The ten Event kinds.
const (
	EventCleanSlate   EventKind = iota // the largest Invalid pile leaves the Code Line
	EventFreshMarket                   // the Market is replaced by three new cards
	EventPassLeft                      // each Code Breaker with cards passes one to the next
	EventBurden                        // each active Code Breaker draws a card
	EventSpotlight                     // a Market card that is valid now is marked
	EventSilence                       // nobody may discard this round
	EventFreeHint                      // keep: one Hint without paying
	EventSecondChance                  // keep: take back an Invalid card instead of the penalty
	EventReversal                      // turns run the other way until the next Event
	EventLuckyDraw                     // keep: discard a card without it being judged
)

// EventCards is the size of the Event deck.
const EventCards = 20

// EventKindOf returns the kind of Event card c.
func EventKindOf(card int) EventKind { return EventKind(card / 2) }

// Keep reports whether the team keeps the card to use later.
func (k EventKind) Keep() bool {
	return k == EventFreeHint || k == EventSecondChance || k == EventLuckyDraw
}

// Title names the Event.
func (k EventKind) Title() string {
	switch k {
	case EventCleanSlate:
		return "Clean Slate"
	case EventFreshMarket:
		return "Fresh Market"
	case EventPassLeft:
		return "Pass Left"
	case EventBurden:
		return "Burden"
	case EventSpotlight:
		return "Spotlight"
	case EventSilence:
		return "Silence"
	case EventFreeHint:
		return "Free Hint"
	case EventSecondChance:
		return "Second Chance"
	case EventReversal:
		return "Reversal"
	case EventLuckyDraw:
		return "Lucky Draw"
	}
	return "?"
}

// Text explains the Event in the project's words.
func (k EventKind) Text() string {
	switch k {
	case EventCleanSlate:
		return "The biggest pile of Invalid cards is cleared from the Code Line."
	case EventFreshMarket:
		return "The Market is thrown out and three new cards are dealt to it."
	case EventPassLeft:
		return "Each Code Breaker holding cards hands one to the next Code Breaker."
	case EventBurden:
		return "Each Code Breaker still holding cards takes one more."
	case EventSpotlight:
		return "A Market card that would be Valid right now is marked, if there is one."
	case EventSilence:
		return "No discarding until the next Event."
	case EventFreeHint:
		return "Kept by the team: reveal a Hint without paying for it."
	case EventSecondChance:
		return "Kept by the team: after an Invalid play, take the card back instead of drawing."
	case EventReversal:
		return "Turns go the other way until the next Event."
	case EventLuckyDraw:
		return "Kept by the team: one Code Breaker throws away a card without it being judged."
	}
	return ""
}
