-- The progress store as attn-tui wrote it at schema 1 (attn_tui/core/progress.py before the
-- course), copied verbatim: the migration test opens a file made from it.
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    id          INTEGER PRIMARY KEY,
    set_id      TEXT NOT NULL,
    exercise_id TEXT NOT NULL,
    answer      TEXT NOT NULL,
    correct     INTEGER NOT NULL,       -- 0/1
    score       REAL NOT NULL,          -- 0 … 1
    hints_used  INTEGER NOT NULL DEFAULT 0,
    revealed    INTEGER NOT NULL DEFAULT 0,
    seed        INTEGER,                -- generated exercises: the draw, to replay it
    at          REAL NOT NULL           -- unix time
);
CREATE INDEX IF NOT EXISTS attempts_by_exercise ON attempts (set_id, exercise_id);
CREATE TABLE IF NOT EXISTS visits (
    set_id      TEXT PRIMARY KEY,
    exercise_id TEXT NOT NULL,
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS self_checks (
    id          INTEGER PRIMARY KEY,
    set_id      TEXT NOT NULL,          -- a set id, or a quiz bank's id
    exercise_id TEXT NOT NULL,
    ideas       TEXT NOT NULL,          -- JSON [idea id, ...] the learner marked "I said this"
    score       REAL NOT NULL,          -- the grader's own score of that answer (0 … 1)
    claimed     REAL NOT NULL,          -- that score plus the weight of the ideas marked
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS quiz_attempts (
    id          INTEGER PRIMARY KEY,
    mode        TEXT NOT NULL CHECK (mode IN ('quick', 'full')),
    score       REAL NOT NULL,          -- points earned
    total       REAL NOT NULL,          -- points possible
    per_topic   TEXT NOT NULL,          -- JSON {topic: [score, total]}
    missed      TEXT NOT NULL,          -- JSON [question id, ...]
    at          REAL NOT NULL
);
INSERT INTO meta VALUES ('app', 'attn-tui');
INSERT INTO meta VALUES ('schema', '1');
