import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { agentServices } from '@/lib/services/agent-services';
import { FEATURES } from '@/lib/ranking/features';
import { collectTurn, eventsOf } from './testing/turn';
import { fixtureLibraryIndex, openFixtureStore, type FixtureStore } from './testing/library';
import { SHIPPED_POLICIES, type TurnPolicies } from './policies';

let fx: FixtureStore;
beforeAll(async () => {
  fx = await openFixtureStore();
});
afterAll(async () => {
  await fx?.close();
});

/** Resolves for everyone once `n` callers have arrived: the turns are both under way before either goes on. */
function meeting(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === n) open();
    return all;
  };
}

describe('policies travel with the turn', () => {
  it('two turns that run at once each apply their own ranking model, form and named-device policy', async () => {
    const meet = meeting(2);
    const index = fixtureLibraryIndex();
    const ask = (policies: Partial<TurnPolicies>) =>
      collectTurn({
        tools: defaultTools,
        question: 'What is the full-load current of the PX-200 motor?',
        services: agentServices({
          ...fx.deps,
          policies,
          libraryIndex: async () => {
            await meet();
            return index;
          },
        }),
        options: { skills: [] },
      });
    // A ranking model for other features: the hybrid search reports it cannot rank with it.
    const foreign = { ...SHIPPED_POLICIES.ranking, features: [...FEATURES].reverse() };
    const [quoting, showing] = await Promise.all([
      ask({ form: { minCoverage: 0, requireAskedQuantity: false }, namedDevice: 'scope' }),
      ask({ form: { minCoverage: 2, requireAskedQuantity: false }, namedDevice: 'first', ranking: foreign }),
    ]);

    expect(eventsOf(quoting, 'scope')[0]).toMatchObject({ manualIds: ['px-200'] });
    expect(eventsOf(showing, 'scope')[0]).toMatchObject({ manualIds: null, first: ['px-200'] });
    expect(eventsOf(quoting, 'response')[0].mode).toBe('answer');
    expect(eventsOf(showing, 'response')[0].mode).toBe('pages');
    const rankError = (events: typeof quoting) => eventsOf(events, 'result').find((r) => r.tool === 'hybrid_search')?.metadata.rank_error;
    expect(rankError(quoting)).toBeUndefined();
    expect(rankError(showing)).toMatch(/ranking weights are for features/);
  });
});
