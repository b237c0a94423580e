import { hostOf, isLoopbackUrl, optionalString, optionalUrl } from '../../config';
import type { ProviderDescriptor } from '../descriptor';

/** Weaviate, self-hosted or Weaviate Cloud: chosen when WEAVIATE_URL is set. */
export const weaviateProvider: ProviderDescriptor = {
  name: 'weaviate',
  env: { WEAVIATE_URL: optionalUrl, WEAVIATE_API_KEY: optionalString },
  secrets: ['WEAVIATE_API_KEY'],
  check(env, _chosen, problems) {
    if (env.WEAVIATE_API_KEY && !env.WEAVIATE_URL) problems.push('WEAVIATE_API_KEY is set but WEAVIATE_URL is not: set the cluster URL');
  },
  roles: {
    vectorDb: {
      auto: (env) => !!env.WEAVIATE_URL,
      resolve(env, { variable, problems }) {
        const url = env.WEAVIATE_URL;
        if (!url) {
          problems.push(`${variable}=weaviate needs WEAVIATE_URL (http://localhost:8080 locally, or your Weaviate Cloud URL)`);
          return { mode: 'local', detail: 'missing WEAVIATE_URL' };
        }
        const local = isLoopbackUrl(url);
        if (!local && !env.WEAVIATE_API_KEY) problems.push(`WEAVIATE_URL points to ${hostOf(url)} (a remote cluster) but WEAVIATE_API_KEY is not set`);
        return { mode: local ? 'local' : 'cloud', detail: `Weaviate at ${hostOf(url)}`, url, apiKey: env.WEAVIATE_API_KEY };
      },
      // Imported when chosen: a LanceDB deployment never loads the gRPC stack.
      async create({ url, apiKey }) {
        if (!url) throw new Error('VECTOR_DB=weaviate needs WEAVIATE_URL');
        return (await import('./weaviate')).openWeaviateStore({ url, apiKey });
      },
    },
  },
};
