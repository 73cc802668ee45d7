-- MatrixNested's colour, once per parent: a unique group holding an enum under a parent, whose
-- test helper drew one value for every row (two notes under one parent collided).
ALTER TABLE matrix_nested_notes
    ADD COLUMN colour text NOT NULL DEFAULT 'red'
        CONSTRAINT matrix_nested_notes_colour_check CHECK (colour IN ('red', 'green', 'blue', 'amber')),
    ADD CONSTRAINT matrix_nested_notes_colour_key UNIQUE (parent_id, colour);
ALTER TABLE matrix_nested_notes ALTER COLUMN colour DROP DEFAULT;
