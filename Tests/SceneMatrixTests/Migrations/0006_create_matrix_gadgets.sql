-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixTyped.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixTyped: Gadgets to exercise every typed shape.
CREATE TABLE matrix_gadgets (
    id uuid PRIMARY KEY,
    label text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_gadgets_label_check CHECK (char_length(label) <= 40)
);
