/**
 * The provider contracts. Tools and ingestion see only these interfaces, obtained from the
 * factories in lib/providers/index.ts (getEmbedder, getMultiVectorEmbedder, getVectorStore,
 * getLLM, getVLM, getReranker); a new backend is its code, its descriptor and its row in registry.ts.
 */

/** A rectangle in PDF page coordinates (points, origin top-left, y grows downwards). */
export interface BBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Dense text embeddings. Vectors are L2-normalised so dot product = cosine similarity. */
export interface Embedder {
  /** Stable id of model + settings; part of every cache key. */
  readonly id: string;
  /**
   * What makes its vectors comparable: provider, model, dimensions and, for the offline embedder,
   * the version of its tokenizer and hashing scheme. Stored with each manual's vectors; a manual
   * whose fingerprint differs from the active embedder's is re-embedded (lib/ingest/reembed.ts).
   */
  readonly fingerprint: string;
  readonly dimensions: number;
  /** Which row of the provider table serves this role (shown in /api/health and the UI). */
  readonly provider: string;
  /** Why a fallback is active, e.g. "model Xenova/bge-small-en-v1.5 not found offline". */
  readonly fallbackReason?: string;
  embedDocuments(texts: string[], opts?: CallOptions): Promise<Float32Array[]>;
  embedQuery(text: string, opts?: CallOptions): Promise<Float32Array>;
}

/** Late-interaction (ColBERT/ColQwen-style) page embeddings: a bag of vectors per page or query. */
export interface MultiVectorEmbedder {
  readonly id: string;
  readonly dimensions: number;
  readonly provider: string;
  /** Upper bound on vectors stored per page (pooled down to it). */
  readonly maxVectorsPerPage: number;
  embedPages(pages: Array<{ text: string; imagePath?: string }>, opts?: CallOptions): Promise<Float32Array[][]>;
  embedQuery(text: string, opts?: CallOptions): Promise<Float32Array[]>;
}

/**
 * A cross-encoder: reads the query and each passage together and scores their relevance. Used
 * over the top candidates of a first-stage search (obtained from getReranker, which returns null
 * with the reason when no model can be had).
 */
export interface Reranker {
  /** Stable id of model + settings, e.g. "transformers:Xenova/ms-marco-MiniLM-L-6-v2:q8". */
  readonly id: string;
  /** Relevance score per passage (same order), higher is better; comparable within one query only. */
  score(query: string, passages: string[], opts?: CallOptions): Promise<number[]>;
}

/** A passage of one page: what ingest cuts, the store keeps and a text search returns. */
export interface Passage {
  id: string;
  manualId: string;
  page: number;
  /** Heading path, outermost first, e.g. "Specifications > Electrical" ('' before the first heading). */
  heading: string;
  text: string;
  /** True if (part of) the text came from OCR. */
  ocr: boolean;
  /** Boxes of the passage's lines (page coordinates), in reading order. */
  bboxes: BBox[];
}

/** A retrievable passage with its dense vector. */
export interface ChunkRecord extends Passage {
  vector: Float32Array;
}

/** One page with its multi-vector bag (for MaxSim page search). */
export interface PageRecord {
  manualId: string;
  page: number;
  text: string;
  vectors: Float32Array[];
}

export interface SearchFilter {
  manualIds?: string[];
  /** Inclusive 1-based page range. */
  pages?: { from?: number; to?: number };
}

export interface SearchOptions {
  limit: number;
  filter?: SearchFilter;
  signal?: AbortSignal;
}

export interface ChunkHit extends Passage {
  score: number;
}

export interface PageHit {
  manualId: string;
  page: number;
  score: number;
}

export interface HybridOptions extends SearchOptions {
  /** Weight of the dense leg in [0, 1]; the BM25 leg gets 1 - alpha. Chosen by eval. */
  alpha?: number;
  /**
   * How the two legs are merged: `relative-score` (min-max normalised scores, weighted sum) or
   * `rrf` (weighted reciprocal rank fusion). Default: DEFAULT_FUSION in lib/providers/vectorstore.
   */
  fusion?: HybridFusion;
}

export type HybridFusion = 'relative-score' | 'rrf';

export interface VectorStore {
  readonly provider: string;
  upsertChunks(chunks: ChunkRecord[]): Promise<void>;
  upsertPages(pages: PageRecord[]): Promise<void>;
  /** Removes every chunk and page of a manual (idempotent). */
  deleteManual(manualId: string): Promise<void>;
  /** Removes every chunk and page of every manual, and the vector size with them (a new embedder's vectors have another). */
  drop(): Promise<void>;
  denseSearch(vector: Float32Array, opts: SearchOptions): Promise<ChunkHit[]>;
  bm25Search(query: string, opts: SearchOptions): Promise<ChunkHit[]>;
  hybridSearch(query: string, vector: Float32Array, opts: HybridOptions): Promise<ChunkHit[]>;
  multiVectorSearch(queryVectors: Float32Array[], opts: SearchOptions): Promise<PageHit[]>;
  count(filter?: SearchFilter): Promise<{ chunks: number; pages: number }>;
  /**
   * Chunk and page rows per manual, reading every stored row's manual id, so damage shows (the
   * vector index audit, lib/store/vector-audit.ts); absent where the backend keeps its own replicas.
   */
  vectorsPerManual?(): Promise<Map<string, { chunks: number; pages: number }>>;
  /**
   * Folds every row written so far into the indexes now (LanceDB does it on its own once writes go
   * quiet); absent where writes are indexed as they land.
   */
  optimize?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A configured language model. `model` is the AI SDK model already wrapped (wrapLanguageModel
 * middleware) with timeouts, retries with backoff, structured logging and record/replay, so every
 * generateText / streamText / generateObject call through it gets them.
 */
export interface LlmClient {
  readonly provider: string;
  readonly modelId: string;
  readonly model: import('ai').LanguageModel;
  /** True when the model accepts image parts (the VLM role). */
  readonly vision: boolean;
}
