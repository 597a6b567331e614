package postgres

// migrations are the schema's versions, in order: migrations[i] brings the
// database from version i to i+1. Never edit a released one; append.
//
// Times that must come back exactly (a game's finish, for sorting and
// showing) are also kept inside the game's JSON; the timestamptz columns
// (microseconds) are for ordering and filtering.
var migrations = []string{
	// 1: accounts, the register of game ids, finished games with their
	// per-account index, stats, If Then records, ratings and history.
	`
CREATE TABLE accounts (
	id        text PRIMARY KEY,
	handle    text NOT NULL,
	created   timestamptz NOT NULL,
	last_seen timestamptz NOT NULL
);
-- Handles are unique ignoring case, as on one node.
CREATE UNIQUE INDEX accounts_handle_key ON accounts (lower(handle));

-- Every game id any node has handed out, so two nodes never share one.
CREATE TABLE game_ids (
	id       text PRIMARY KEY,
	reserved timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE games (
	id         text PRIMARY KEY,
	game       text NOT NULL,
	public     boolean NOT NULL,
	rated      boolean NOT NULL,
	finished   timestamptz NOT NULL,
	seq        bigserial NOT NULL,          -- finishing order, for equal times
	top_rating double precision NOT NULL,   -- highest rating at the table before it began
	listing    json NOT NULL,               -- the game without its moves
	record     json NOT NULL                -- everything, moves included
);
CREATE INDEX games_public_recent ON games (finished DESC, seq DESC) WHERE public;

CREATE TABLE account_games (
	account  text NOT NULL,
	game_id  text NOT NULL REFERENCES games (id),
	finished timestamptz NOT NULL,
	seq      bigint NOT NULL,
	public   boolean NOT NULL,
	PRIMARY KEY (account, game_id)
);
CREATE INDEX account_games_recent ON account_games (account, finished DESC, seq DESC);

-- Totals per account and game; an account's overall totals are their sum.
CREATE TABLE stats (
	account   text NOT NULL,
	game      text NOT NULL,
	played    integer NOT NULL,
	won       integer NOT NULL,
	shared    integer NOT NULL,
	lost      integer NOT NULL,
	no_winner integer NOT NULL,
	left_game integer NOT NULL,
	PRIMARY KEY (account, game)
);

CREATE TABLE ifthen_levels (
	account text NOT NULL,
	level   text NOT NULL,
	played  integer NOT NULL,
	cleared integer NOT NULL,
	fewest  integer NOT NULL,
	PRIMARY KEY (account, level)
);

CREATE TABLE ratings (
	account text NOT NULL,
	game    text NOT NULL,
	r       double precision NOT NULL,
	rd      double precision NOT NULL,
	vol     double precision NOT NULL,
	games   integer NOT NULL,
	wins    integer NOT NULL,
	last    timestamptz NOT NULL,
	PRIMARY KEY (account, game)
);
CREATE INDEX ratings_board ON ratings (game, r DESC, account COLLATE "C");

CREATE TABLE rating_history (
	account text NOT NULL,
	game    text NOT NULL,
	at      timestamptz NOT NULL,
	seq     bigint NOT NULL,
	game_id text NOT NULL,
	r       double precision NOT NULL,
	rd      double precision NOT NULL,
	PRIMARY KEY (account, game, at, seq)
);
`, // 2: the analysis of finished games (engine/analysis reports).
	`
CREATE TABLE analyses (
	game_id text PRIMARY KEY REFERENCES games (id),
	report  json NOT NULL
);
`, // 3: the puzzle of the day: each day's puzzle per game, every account's
	// one answer, and each account's streak per game.
	`
CREATE TABLE puzzles (
	day    text NOT NULL,   -- UTC date, 2006-01-02
	game   text NOT NULL,
	puzzle json NOT NULL,
	PRIMARY KEY (day, game)
);

CREATE TABLE puzzle_tries (
	day     text NOT NULL,
	game    text NOT NULL,
	account text NOT NULL,
	solved  boolean NOT NULL,
	at      timestamptz NOT NULL,
	try     json NOT NULL,  -- the answer, its exact time included
	PRIMARY KEY (day, game, account),
	FOREIGN KEY (day, game) REFERENCES puzzles (day, game)
);

CREATE TABLE puzzle_streaks (
	account text NOT NULL,
	game    text NOT NULL,
	streak  json NOT NULL,
	PRIMARY KEY (account, game)
);
`,
}
