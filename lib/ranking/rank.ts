/**
 * Page ranking: the candidate pages of a question (./features.ts) ordered by the learned model
 * (./model.ts), a page that every leg ranks first kept first. The model in use is the one trained
 * on every public question set (./weights.json, written by `npm run eval -- --train`) unless the
 * caller passes another (a turn passes its policies' model; the eval's cross-validation passes one
 * trained without the manual or question set under test).
 */
import { candidateFeatures, FEATURES, type RankingInput } from './features';
import type { CorpusChunk, LibraryIndex } from './library-index';
import { score, type LinearModel } from './model';
import shipped from './weights.json';

export interface RankedPage {
  manualId: string;
  page: number;
  score: number;
  /** The page's passages that match the question, best first. */
  chunks: Array<{ chunk: CorpusChunk; score: number }>;
}

function checkedModel(model: LinearModel): LinearModel {
  const same = model.features.length === FEATURES.length && model.features.every((f, i) => f === FEATURES[i]);
  if (!same) throw new Error(`ranking weights are for features [${model.features.join(', ')}], not [${FEATURES.join(', ')}]: run npm run eval -- --train`);
  return model;
}

/** The model trained on every public question set. */
export const SHIPPED_RANKING_MODEL: LinearModel = checkedModel(shipped as LinearModel);

/**
 * The candidates in the model's order, except that a page every leg ranks first stays first (do
 * no harm): the model learned from 100 questions over one library and must not overrule four
 * retrievers that agree. Four, not the three text legs: those agree on a wrong page too often (21
 * of 52 public questions), and keeping their page first cost up to 0.06 R@1 under CV; the
 * four-leg guard costs 0.007 mean R@1 over both CV schemes and three library sizes (docs/eval.md),
 * the price of never overruling them all.
 */
export function rankPages(index: LibraryIndex, input: RankingInput, model: LinearModel = SHIPPED_RANKING_MODEL): RankedPage[] {
  checkedModel(model);
  const ranked = candidateFeatures(index, input)
    .map((c) => {
      const p = index.pages[c.page];
      return {
        manualId: p.manualId,
        page: p.number,
        score: score(model, c.features),
        chunks: c.chunks.map(({ chunk, score: s }) => ({ chunk: index.chunks[chunk], score: s })),
        unanimous: c.unanimous,
      };
    })
    .sort((a, b) => Number(b.unanimous) - Number(a.unanimous) || b.score - a.score || a.manualId.localeCompare(b.manualId) || a.page - b.page);
  return ranked.map(({ unanimous: _, ...page }) => page);
}
