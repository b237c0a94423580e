/**
 * End-to-end tests only: a deterministic processing window, without timing. With MC_E2E=1 and
 * MC_E2E_INGEST_GATE=<file>, while that file exists and holds a page count N, an ingest's text
 * pass stops once N or more pages are searchable, until the test removes the file. Without the
 * file (every other spec, every real run) it does nothing.
 */
import fs from 'node:fs';
import { runtimeEnv, runtimeFlag } from '../config';
import { sleep } from '../runtime/abort';

/** How often a held ingest looks at the gate file again. */
const GATE_POLL_MS = 100;

/** The page count the gate holds at, or undefined when no gate is set. */
function gatePages(): number | undefined {
  const file = runtimeFlag('MC_E2E') ? runtimeEnv('MC_E2E_INGEST_GATE') : undefined;
  if (!file) return undefined;
  try {
    const n = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Waits while the gate holds ingests with `searchable` pages searchable. */
export async function holdAtE2eGate(searchable: number, signal: AbortSignal): Promise<void> {
  for (let at = gatePages(); at !== undefined && searchable >= at; at = gatePages()) await sleep(GATE_POLL_MS, signal);
}
