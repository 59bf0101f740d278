CREATE TABLE ${prefix}orders (id INTEGER NOT NULL PRIMARY KEY);
INSERT INTO ${prefix}no_such_table (id) VALUES (1);
