/**
 * A small two-manual corpus indexed into a REAL LanceDB store with the real offline embedders, for
 * tool and end-to-end agent tests (the store is never mocked). Kept apart from ./turn.ts so the
 * pure loop tests do not load the native LanceDB module.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HashedNgramEmbedder } from '@/lib/providers/embeddings/hashed-ngrams';
import { LocalMultiVectorEmbedder, OFFLINE_MAX_VECTORS_PER_PAGE } from '@/lib/providers/multivector/local';
import type { ChunkRecord, Embedder, MultiVectorEmbedder, VectorStore } from '@/lib/providers/types';
import { openLanceStore } from '@/lib/providers/vectorstore';
import { LibraryIndex } from '@/lib/ranking/library-index';
import type { AgentDeps } from '@/lib/services/agent-services';

export const TITLES: Record<string, string> = { 'px-200': 'PX-200 Pump Manual', 'cb-9': 'CB-9 Controller Board Guide' };

type FixtureChunk = Omit<ChunkRecord, 'vector' | 'ocr' | 'bboxes'>;

export const FIXTURE_CHUNKS: FixtureChunk[] = [
  {
    id: 'px-200:1:0',
    manualId: 'px-200',
    page: 1,
    heading: 'Specifications > Electrical',
    text: 'The PX-200 motor is rated at 230 V AC, 50 Hz and 1.5 kW. The full-load current is 6.8 A. The motor is protected by a 10 A slow-blow fuse.',
  },
  {
    id: 'px-200:2:0',
    manualId: 'px-200',
    page: 2,
    heading: 'Maintenance',
    text: 'Clean the inlet strainer every 500 operating hours. Replace the shaft seal every 4000 hours or as soon as the pump leaks at the shaft.',
  },
  {
    id: 'px-200:3:0',
    manualId: 'px-200',
    page: 3,
    heading: 'Troubleshooting > Error codes',
    text: 'Error code E04 means the motor has overheated: let it cool for 30 minutes and check the cooling fan. Error code E07 indicates low inlet pressure: check that the inlet strainer is not blocked.',
  },
  {
    id: 'px-200:4:0',
    manualId: 'px-200',
    page: 4,
    heading: 'Installation > Wiring',
    text: 'Figure 4 shows the wiring diagram of the terminal block. Terminal L1 takes the brown wire, terminal N the blue wire, and the green-yellow wire goes to the PE earth screw.',
  },
  {
    id: 'cb-9:1:0',
    manualId: 'cb-9',
    page: 1,
    heading: 'Overview',
    text: 'The CB-9 controller board takes a 12 to 24 V DC supply. The status LED D3 blinks green while the firmware is running.',
  },
  {
    id: 'cb-9:2:0',
    manualId: 'cb-9',
    page: 2,
    heading: 'Connectors > J2 pinout',
    text: 'Connector J2 pinout: pin 1 is GND, pin 2 is +5 V, pin 3 is TX and pin 4 is RX of the debug UART.',
  },
];

/** Highlight boxes derived from the id, so a test can tell they came from the cited chunk. */
export const bboxFor = (id: string, i = 0) => ({ x: 50, y: 100 + 20 * (id.length + i), w: 400, h: 14 });

/** The fixture library's index (what the store's index would hold), for handing a turn an explicit one. */
export function fixtureLibraryIndex(): LibraryIndex {
  return new LibraryIndex({
    manuals: Object.entries(TITLES).map(([id, title]) => ({ id, title, fileName: `${id}.pdf` })),
    pages: FIXTURE_CHUNKS.map((c) => ({ manualId: c.manualId, number: c.page, text: `${c.heading}\n${c.text}` })),
    chunks: FIXTURE_CHUNKS.map((c) => ({ ...c, ocr: false, bboxes: [bboxFor(c.id)] })),
  });
}

export interface FixtureStore {
  store: VectorStore;
  embedder: Embedder;
  multiVectorEmbedder: MultiVectorEmbedder;
  deps: AgentDeps;
  dir: string;
  close(): Promise<void>;
}

export async function openFixtureStore(): Promise<FixtureStore> {
  const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR ?? os.tmpdir(), 'agent-lancedb-'));
  const embedder = new HashedNgramEmbedder();
  const multiVectorEmbedder = new LocalMultiVectorEmbedder(embedder, { maxVectorsPerPage: OFFLINE_MAX_VECTORS_PER_PAGE });
  const store = await openLanceStore(dir);
  const vectors = await embedder.embedDocuments(FIXTURE_CHUNKS.map((c) => `${c.heading}\n${c.text}`));
  await store.upsertChunks(FIXTURE_CHUNKS.map((c, i) => ({ ...c, ocr: false, bboxes: [bboxFor(c.id)], vector: vectors[i] })));
  const pages = FIXTURE_CHUNKS.map((c) => ({ manualId: c.manualId, page: c.page, text: `${c.heading}\n${c.text}` }));
  const bags = await multiVectorEmbedder.embedPages(pages);
  await store.upsertPages(pages.map((p, i) => ({ ...p, vectors: bags[i] })));
  return {
    store,
    embedder,
    multiVectorEmbedder,
    dir,
    deps: {
      embedder,
      multiVectorEmbedder,
      vectorStore: store,
      llm: null,
      vlm: null,
      pageImage: null,
      manualTitle: (id) => TITLES[id],
    },
    close: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
