package ifthen

// Rules explains If Then for the rules screen, in the arcade's own words.
const Rules = `If Then · 2 to 6 players, one team

The idea
  A secret rule, the Code, decides which card may follow which. The players
  lay number cards in a row, the Code Line, and are told each time whether
  the card obeyed the Code. Together they work the rule out and get rid of
  their cards before the cards run out.

The cards
  Every number card has two ends, and you choose which end goes on top when
  you lay it; only the top end counts. An end has a number from 0 to 9, a
  number colour, a size and a background colour (yellow, blue or red; the
  number is never the same colour as its background). On screen an end is
  written short: 7YLr is a large yellow 7 on red (Y yellow, B blue, R red;
  S small, M medium, L large; the last letter is the background).
  Numbers wrap around: after 9 comes 0, and 0 counts as even.

Who plays
  The All Knowing holds the Code and judges every card. By default the
  server takes that part and every seat breaks the code. A table may
  instead give it to the first seat: that player sees the Code and paces
  the game, turning over the Events and Hints. Everyone else is a Code
  Breaker. Breakers start with three cards each; a lone Breaker gets six.
  Three cards lie face up in the Market and the rest form the draw deck.
  The lower the level, the more cards are left out of the deck.

Your turn
  Lay a card on the Code Line (↑/↓ picks it, ←/→ flips which end is on
  top, enter lays it), or throw one away with d.
  A laid card is judged against the last card that was accepted. Accepted:
  it becomes the new last card. Rejected: it is set beside that card as an
  Invalid card and you take a penalty.
  A throw-away is meant for a card neither end of which could be accepted
  now. If one end would have been fine, the card comes back to your hand
  and you take the penalty anyway.
  Once your hand is empty you are out of cards but still on the team.

Penalties
  A penalty means drawing cards: two at first, three once three Invalid
  cards lie on the Code Line, four once there are six. You may take some
  or all of them from the Market (press 1–3 to mark them, then enter); the
  rest come off the deck. Clearing Invalid cards lowers the penalty again.

Rounds and Events
  A round is one turn for every Breaker who still holds cards (a lone
  Breaker plays two turns). Then an Event is turned over and holds until
  the next one. Some shake up the table: clear the biggest Invalid pile,
  deal a fresh Market, pass a card to your left, make everyone draw,
  forbid throwing away, reverse the turn order, or mark a Market card
  that fits right now. Others are kept by the team for later: a free
  Hint, taking back a rejected card instead of paying for it, or
  throwing a card away unjudged.

Hints
  Each Code comes with two Hints, each naming a property the Code does not
  look at. Once the penalty is three, the team may pay three cards off the
  deck for the first; once it is four, six cards for the second (i).

Team decisions
  Buying a Hint, using a kept Event and guessing the Code are proposals:
  everyone on the team must agree (y) or one refusal (n) stops it.

Guessing the Code
  When only one Breaker still holds cards, the team may name the Code (g).
  Build it on screen, or press tab and type it, for instance
  "bg != prev.bg" or "if prev.size == small then number > prev.number".
  A guess counts as right when it accepts and rejects exactly the same
  cards as the Code. A wrong guess costs the current penalty off the deck,
  twice over when the team is a single Code Breaker.

How it ends
  The team wins when every Breaker has emptied their hand, or with a right
  guess. It loses the moment someone must draw more cards than the deck and
  the Market still hold.

Mastermind (3 or more players)
  The first seat knows the Code and also plays, secretly loyal to the team
  or against it. It picks one of two Codes and its loyalty at the start, and
  on its own turn swaps a hand card into the Market (1–3, then enter) or
  cycles one through its private pile (x). It wins or loses with the side
  it chose.`
