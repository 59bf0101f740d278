-- needs V1's table: fails if run first
ALTER TABLE ${prefix}people ADD COLUMN email TEXT;
UPDATE ${prefix}people SET email = name || '@example.com';
CREATE INDEX ${prefix}people_email ON ${prefix}people (email)
