/**
 * The fingerprint of the search index: what made its vectors. A chunk vector comes from the dense
 * embedder and a page bag from the multi-vector embedder (whose local kind uses the dense
 * embedder's token vectors), so both are in it. Each manual records the fingerprint its vectors
 * were made with (manuals.index_fingerprint); the ingest worker re-embeds the manuals whose
 * fingerprint is not the active one (lib/ingest/reembed.ts).
 */
import { getEmbedder } from './embeddings';
import { getMultiVectorEmbedder } from './multivector';
import type { Embedder, MultiVectorEmbedder } from './types';

export function indexFingerprint(embedder: Pick<Embedder, 'fingerprint'>, multiVector: Pick<MultiVectorEmbedder, 'id' | 'dimensions'>): string {
  return `${embedder.fingerprint} + ${multiVector.id}:${multiVector.dimensions}`;
}

/** The fingerprint of the configured embedders. */
export async function activeIndexFingerprint(): Promise<string> {
  const [embedder, multiVector] = await Promise.all([getEmbedder(), getMultiVectorEmbedder()]);
  return indexFingerprint(embedder, multiVector);
}
