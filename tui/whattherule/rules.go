package whattherule

// Rules explains What the Rule?! in the arcade's own words.
const Rules = `What the Rule?!: find the game master's secret rule by playing cards.

The cards
  144 cards: circles, triangles or squares, one to six of them, filled or
  open, on a white or a black card. Every face is printed twice. On screen a
  card is its count, its shape (solid when filled) and its colour letter:
  3▲b is three filled triangles on black, 5○w five open circles on white.

A round
  One player is the game master and sets a rule saying which card may come
  next on the line, such as "colours take turns" or "no circles". Everyone
  else gets ten cards. In turn, starting left of the game master, a player
  either plays a card or shows their hand:
  - A card that fits joins the line; then you may guess the rule.
  - A card that does not fit goes below the line, under the next free spot,
    and you draw a card.
  - Showing your hand says none of it fits. If that is true, your hand goes
    under the pile, you draw one card fewer, and you may guess. If a card
    does fit, the game master lays it on the line and you draw one.
  The round ends when someone names the rule, when a player ends a turn
  with no cards, or when the pile runs out.

Machine rules and free rules
  A machine rule is written in the rule language (or drawn from the library
  of graded rules) and the server judges every card at once. Guesses are
  written in the same language and count when they mean exactly the same:
  "no black cards" names "white cards only". A free rule is plain words; the
  game master judges each card, hand and guess by hand, against a clock.
  You never have to learn the language by heart: u opens a builder that
  makes a rule or a guess from choices, and an empty entry shows the
  language in brief with examples such as "color != prev.color" (colours
  take turns) and "count in {1, 2}" (only ones and twos).

Hints
  Between turns anyone may propose hints. Only if every player and the game
  master agree may the game master give hints, and any player may object to
  each announced hint. A right guess then earns 2 points instead of 5.

Points
  After a round each player scores 10 minus the cards in hand, plus the bonus
  for naming the rule. The game master scores as much as the best player,
  halved (rounded down) when the rule fell before everyone had two turns or
  before ten cards were played, or was never found. Everyone leads once (or
  the table picks the number of rounds); the highest total wins. Two players,
  or a table that chooses it, play without points.`
