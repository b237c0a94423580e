/**
 * The one door to models and storage. Tools and ingestion call these factories and never
 * construct clients; each role's folder holds its implementations, their descriptors and its factory.
 */
export { getEmbedder } from './embeddings';
export { getMultiVectorEmbedder } from './multivector';
export { getVectorStore } from './vectorstore';
export { getLLM, getVLM } from './llm';
export { getReranker, type RerankerStatus } from './reranker';
export { activeIndexFingerprint, indexFingerprint } from './fingerprint';
export type * from './types';
