import { closeEmbeddings } from '@/lib/providers/embeddings';
import { closeVectorStores } from '@/lib/providers/vectorstore';
import { closeDb } from '@/lib/store/db';
import { shutdownOcrEngine } from '../pipeline';

/**
 * For the afterAll of a test that ingests: stops what ingesting started, in order — the OCR
 * engine, the vector stores, the embedders, then the database they write to.
 */
export async function closeIngestStack(): Promise<void> {
  await shutdownOcrEngine();
  await closeVectorStores();
  await closeEmbeddings();
  await closeDb();
}
