import { hostOf, isLoopbackUrl, optionalUrl } from '../../config';
import type { ProviderDescriptor } from '../descriptor';
import { envInt } from '../embeddings/util';
import { ColQwenMultiVectorEmbedder } from './colqwen';

/** The ColQwen HTTP worker (COLQWEN_WORKER.md): chosen when COLQWEN_URL is set. */
export const colqwenProvider: ProviderDescriptor = {
  name: 'colqwen',
  env: { COLQWEN_URL: optionalUrl },
  check(env, chosen, problems) {
    if (env.COLQWEN_URL && chosen.multiVector !== 'colqwen') problems.push(`COLQWEN_URL is set but MULTIVECTOR=${chosen.multiVector}: remove one of them`);
  },
  roles: {
    multiVector: {
      auto: (env) => !!env.COLQWEN_URL,
      resolve(env, { variable, problems }) {
        const url = env.COLQWEN_URL;
        if (!url) problems.push(`${variable}=colqwen needs COLQWEN_URL (the ColQwen worker, e.g. http://localhost:8001)`);
        return { mode: url && !isLoopbackUrl(url) ? 'cloud' : 'local', url, detail: `ColQwen worker at ${url ? hostOf(url) : '?'}` };
      },
      async create({ url }, ctx) {
        if (!url) throw new Error('MULTIVECTOR=colqwen needs COLQWEN_URL');
        return ColQwenMultiVectorEmbedder.create({
          url,
          cache: await ctx.cache(),
          maxVectorsPerPage: envInt('MULTIVECTOR_MAX_VECTORS_PER_PAGE', 256),
          timeoutMs: envInt('COLQWEN_TIMEOUT_MS', 120_000),
        });
      },
    },
  },
};
