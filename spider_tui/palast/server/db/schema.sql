-- The Palast's tables (SPEC §13).  Plain SQL that SQLite and PostgreSQL both read
-- (the PostgreSQL store swaps INTEGER PRIMARY KEY for an identity column).
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,          -- name.casefold(): names are unique case-insensitively
    skeleton TEXT,                          -- names.key(name): unique (an index, see MIGRATE_SKELETON)
    token_hash TEXT NOT NULL,               -- sha256 of the token; the token itself is never stored
    created DOUBLE PRECISION NOT NULL,
    rating_mu DOUBLE PRECISION,             -- OpenSkill rating, NULL before the first counted table
    rating_sigma DOUBLE PRECISION,
    tables INTEGER NOT NULL DEFAULT 0,      -- counted tables played
    wins INTEGER NOT NULL DEFAULT 0,        -- counted tables won (place 1, shared or not)
    experience INTEGER NOT NULL DEFAULT 0,  -- every point ever scored, Training included
    bot INTEGER NOT NULL DEFAULT 0          -- a house bot (SPEC §13): marked, never rated
);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    host TEXT,                              -- a player name; NULL for a standard table
    suits INTEGER NOT NULL,
    rules TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    seats INTEGER NOT NULL,
    private INTEGER NOT NULL,
    code TEXT UNIQUE,                       -- invite code of a private table
    standard INTEGER NOT NULL,
    state TEXT NOT NULL,                    -- waiting | playing | finished
    round INTEGER NOT NULL DEFAULT 0,
    round_state TEXT NOT NULL DEFAULT 'none',  -- none | playing | over
    deal TEXT,                              -- the current round's deal code p-… (SPEC §2); old rows: a number
    round_started DOUBLE PRECISION,
    ends_at DOUBLE PRECISION,
    next_at DOUBLE PRECISION,
    created DOUBLE PRECISION NOT NULL,
    full_at DOUBLE PRECISION,               -- a standard table: when its second player sat down
    daily TEXT                              -- a daily try (SPEC §16): its UTC day, YYYY-MM-DD
);
CREATE INDEX IF NOT EXISTS tables_state ON tables (state);
CREATE TABLE IF NOT EXISTS seats (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    seat INTEGER NOT NULL,
    ready INTEGER NOT NULL DEFAULT 0,
    joined DOUBLE PRECISION NOT NULL,
    left_at DOUBLE PRECISION,               -- left the running table: the rest of its rounds are forfeited
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX IF NOT EXISTS seats_player ON seats (player_id);
CREATE TABLE IF NOT EXISTS actions (
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, round, player_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    score INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    seconds DOUBLE PRECISION,
    state TEXT NOT NULL,
    PRIMARY KEY (table_id, round, player_id)
);
CREATE TABLE IF NOT EXISTS round_deals (     -- every round's deal, told in its round_over (SPEC §13)
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    deal TEXT NOT NULL,
    PRIMARY KEY (table_id, round)
);
CREATE TABLE IF NOT EXISTS records (         -- every player's record of every finished round (SPEC §16)
    table_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    record TEXT NOT NULL,                   -- the text of docs/records.md (spider_tui.records)
    PRIMARY KEY (table_id, round, player_id)
);
CREATE TABLE IF NOT EXISTS daily (           -- each UTC day's deal per suit count (SPEC §16 daily board)
    day TEXT NOT NULL,                      -- YYYY-MM-DD
    suits INTEGER NOT NULL,
    deal TEXT NOT NULL,                     -- a deal code, told when the day is over
    PRIMARY KEY (day, suits)
);
CREATE TABLE IF NOT EXISTS daily_tries (     -- one try a player a day and suit count: its one-seat table
    day TEXT NOT NULL,
    suits INTEGER NOT NULL,
    player_id INTEGER NOT NULL,
    table_id INTEGER NOT NULL,
    PRIMARY KEY (day, suits, player_id)
);
