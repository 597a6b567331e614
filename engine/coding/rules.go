package coding

// Rules is a how-to-play text for The Coding as this arcade runs it, in the
// project's own words, for the rules screen.
const Rules = `The Coding · 2 to 4 players

Your code
  You are dealt one letter (A–F) and two digits (0–9). Every card exists
  once, so nobody shares a card with you. Before play you choose which digit
  comes first: the code F98 has letter F, X1 = 9, X2 = 8 (number 98).

The four rounds
  On your turn you take a Data card that is true of your code: each one says
  your code is NOT in a range (A–B, C–D, E–F, 00–19, 20–39, 40–59, 60–79,
  80–99). You never take the same range twice. If you can take none of the
  cards left on the table, the table announces it, which tells everyone
  your code lies in every range left that you do not already hold.
  Then you send one of the five face-up Hack cards to another player. It asks
  about one position ("is X1 one of 0 2 4 6 8?"); the receiver's answer,
  green for yes or red for no, is shown to all. The receiver plays next.
  Within a round you send only to players who have not played yet, so
  never back to whoever just sent to you (with 2 players you must), and the
  round's first player receives last. After each round, the fourth too, the
  first-player card moves one seat on. With 2 players there is one Data
  card of each range; with 3 or 4 there are two of each, so everyone can
  end round 4 holding four.

Speed Cracking (system "speed")
  After round 4 the table is cleared and the race starts. Tap to claim the
  answer: the first tap the server receives wins the right to answer, and
  you then have the answer window to name a player and their whole code.
  Right: you win. Wrong, or out of time: you are out and your code is shown
  to all. The last player left wins.
  If everyone still in votes for more data, one leftover card per player
  still in is turned face up (they belong to nobody). With 2 or 3 players
  this can be voted again while cards are left; with 4, only once. After
  that, a unanimous vote has everyone pick one of their X cards in secret,
  and all are shown together. After that, someone must tap.

Counter Cracking (system "counter")
  After round 4, the holder of the first-player card starts and turns go
  left. On your turn either hack (a Data card if one can be taken, then a
  Hack card, not back to whoever sent you your latest one unless only two
  players are left; nobody may hold more than five) or decode: name a
  player and their whole code. Right: they are out with their code shown,
  and you may take another action or stop. Wrong: you show one of your
  cards of your choice; your third wrong decode shows the last one and you
  are out. The last player with a hidden code wins.

Crack sheet
  Your screen keeps, for every opponent and position, the values still
  possible from everything public and your own cards. A table may switch it
  off.`
