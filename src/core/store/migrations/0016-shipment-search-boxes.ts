/**
 * Migration 0016, a shipment's search row holds its containers' numbers, so a shipment's search
 * reads one search table and never joins its containers'.
 *
 * A shipment is found by its own text or one of its boxes' numbers. Reading both tables cost a
 * count of one or two typed characters over 100k shipments 65–230 ms (each row's containers
 * tested, or every matching box joined back to its shipment); one table is one scan or one
 * trigram match. The numbers are a column of their own (`boxes`), so the containers list, which
 * finds a box through its shipment's text, matches the shipment's own column only and never a
 * sibling box's number.
 *
 * The writer inserts a shipment's row with the numbers of its stored boxes
 * (`resources/shipments.ts`); the triggers keep them as boxes are written after it, renumbered,
 * moved to another shipment or deleted. A box re-written unchanged fires nothing.
 */
const boxesOf = (shipmentId: string) =>
  `(SELECT group_concat(number, ' ') FROM containers WHERE shipment_id = ${shipmentId})`;
const refresh = (shipmentId: string, when = '1') =>
  `UPDATE shipment_search SET boxes = ${boxesOf(shipmentId)}
    WHERE ${when} AND rowid = (SELECT rowid FROM shipments WHERE id = ${shipmentId});`;

export const up = `
ALTER TABLE shipment_search RENAME TO shipment_search_previous;
CREATE VIRTUAL TABLE shipment_search USING fts5 (body, boxes, tokenize = 'trigram');
INSERT INTO shipment_search (shipment_search, rank) VALUES ('automerge', 0);
INSERT INTO shipment_search (shipment_search, rank) VALUES ('crisismerge', 64);
INSERT INTO shipment_search (rowid, body, boxes)
  SELECT p.rowid, p.body, ${boxesOf('s.id')} FROM shipment_search_previous p JOIN shipments s ON s.rowid = p.rowid;
DROP TABLE shipment_search_previous;

CREATE TRIGGER shipment_search_box_added AFTER INSERT ON containers
  WHEN NEW.number IS NOT NULL AND NEW.shipment_id IS NOT NULL
BEGIN
  ${refresh('NEW.shipment_id')}
END;
CREATE TRIGGER shipment_search_box_changed AFTER UPDATE OF number, shipment_id ON containers
  WHEN OLD.number IS NOT NEW.number OR OLD.shipment_id IS NOT NEW.shipment_id
BEGIN
  ${refresh('NEW.shipment_id')}
  ${refresh('OLD.shipment_id', 'OLD.shipment_id IS NOT NEW.shipment_id')}
END;
CREATE TRIGGER shipment_search_box_removed AFTER DELETE ON containers
  WHEN OLD.number IS NOT NULL AND OLD.shipment_id IS NOT NULL
BEGIN
  ${refresh('OLD.shipment_id')}
END;
`;
