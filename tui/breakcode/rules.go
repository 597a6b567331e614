package breakcode

// Rules explains Break the Code in the arcade's own words.
const Rules = `Break the Code: work out hidden number tiles by asking questions.

The tiles
  There are twenty tiles: the numbers 0 to 9 once in black and once in white,
  except the two 5s, which are both green. On screen a tile is its number and
  a letter: 3b is a black 3, 7w a white 7, 5g a green 5. Black tiles are also
  drawn inverted and white ones bold, so the letters and the look agree even
  without colour.

  Every hand is kept in order from the lowest number to the highest; when two
  tiles share a number, the black one sits to the left. The places in a hand
  are called a, b, c, d and e from the left.

Who holds what
  With two players, each holds five tiles and the rest stay out of play: you
  are trying to name your opponent's hand. With three players, each holds five
  and five more lie face down in the middle; with four, each holds four and
  four lie in the middle. Then the hidden set to name is the middle one.

A turn
  Six question cards lie open. On your turn pick one; the other players
  answer it truthfully about their own tiles (with four players you answer it
  too). The card is then replaced from the deck. Questions ask things like the
  sum of your tiles, how many of them are odd, which neighbours share a
  colour, or where your 8s or 9s are. For the "where are your 1s or 2s" style
  of card you choose which of the two numbers you are asking about.

  Instead of asking, you may guess. Type the whole hidden set, tiles in order,
  like 1b 2w 5g 8b 9w.

Winning
  Two players: a wrong guess is only called wrong, with no hint of which
  tiles missed, and costs just your turn. A right guess wins at once, except
  when the player who started the game makes it: then the other player gets
  one last guess, and a tie if it is right (wrong, or passing, loses).

  Three or four players: each player guesses at most once. You alone see the
  middle tiles then; the table only learns whether you got it. A wrong guess
  puts you out (you still answer questions). A right guess wins, and the
  round is finished so everyone had as many turns; several players can win.
  If everyone guesses wrong, nobody wins.

  The game also ends when the last open card has been asked: a draw with two
  players; with three or four, only those who already guessed right win.

Your sheet
  The board keeps every answer you have heard, opponent by opponent, so you
  never need paper. With the notepad aid on (a table option), it also counts
  how many hands each opponent (and the middle) could still hold.`
