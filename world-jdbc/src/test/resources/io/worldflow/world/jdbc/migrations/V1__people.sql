-- people, with a name
CREATE TABLE ${prefix}people (
    id   INTEGER NOT NULL PRIMARY KEY,
    name TEXT    NOT NULL
);

INSERT INTO ${prefix}people (id, name) VALUES (1, 'ada');
