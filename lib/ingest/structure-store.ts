/**
 * Ingest's last step for structure: the units of the whole manual, read once its pages
 * are complete (OCR lines merged), written to the `units` table for the answer stage.
 */
import { replaceUnits, type UnitRow } from '../store/units';
import { readManualStructure, type StructurePage, type StructureUnit } from './structure';

/** A unit as a row: the shared fields in columns, the kind's own fields in `data`. */
function unitRow(manualId: string, u: StructureUnit, seq: number): UnitRow {
  const { kind, page, regions, heading, text, ocr, ...data } = u;
  return {
    id: `${manualId}:u${seq}`,
    manualId,
    seq,
    kind,
    page,
    pageEnd: Math.max(...regions.map((r) => r.page)),
    heading: heading ?? '',
    text,
    ocr,
    regions,
    data: data as Record<string, unknown>,
  };
}

/** Reads and stores the manual's units; returns how many. */
export async function storeStructure(manualId: string, pages: StructurePage[]): Promise<number> {
  const units = readManualStructure(pages);
  await replaceUnits(
    manualId,
    units.map((u, i) => unitRow(manualId, u, i)),
  );
  return units.length;
}
