/**
 * Instruction prefixes that asymmetric retrieval models were trained with. Leaving them out
 * costs several points of recall on these models, so the embedders add them by model name.
 */
export interface InstructionPrefixes {
  query: string;
  document: string;
}

const RULES: Array<[RegExp, InstructionPrefixes]> = [
  [/bge-(small|base|large)-en(-v1\.5)?$/i, { query: 'Represent this sentence for searching relevant passages: ', document: '' }],
  [/snowflake-arctic-embed|mxbai-embed-large/i, { query: 'Represent this sentence for searching relevant passages: ', document: '' }],
  [/(^|\/)(multilingual-)?e5-/i, { query: 'query: ', document: 'passage: ' }],
  [/nomic-embed-text/i, { query: 'search_query: ', document: 'search_document: ' }],
];

export function instructionPrefixes(modelId: string): InstructionPrefixes {
  for (const [re, p] of RULES) if (re.test(modelId)) return p;
  return { query: '', document: '' };
}

/** Pooling a sentence-embedding model expects when its folder does not say (1_Pooling/config.json). */
export function defaultPooling(modelId: string): 'cls' | 'mean' {
  return /bge-|snowflake-arctic-embed|mxbai-embed/i.test(modelId) ? 'cls' : 'mean';
}
