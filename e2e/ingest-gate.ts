import os from 'node:os';
import path from 'node:path';

/**
 * The file the test server's ingest gate reads (lib/ingest/e2e-gate.ts, MC_E2E_INGEST_GATE): while
 * it holds N, an ingest pauses once N pages are searchable. One per port, so parallel runs differ.
 */
export const INGEST_GATE = path.join(os.tmpdir(), `mc-e2e-ingest-gate-${process.env.E2E_PORT ?? 3107}`);
