import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { ALL_ENV_VARS, describeProviders, loadProviderConfig } from '../providers/roles';
import { ConfigError, getConfig, hostPolicy, isLoopbackUrl, runtimeNumber, type RawEnv } from '.';

function problemsOf(env: RawEnv): string[] {
  try {
    loadProviderConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig: provider modes', () => {
  it('defaults to the embedded offline stack with no variables', () => {
    const c = loadProviderConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('data'));
    expect(c.upload).toEqual({ maxBytes: 200 * 1024 * 1024, maxPages: 2000 });
    expect(c.vectorDb).toMatchObject({ provider: 'lancedb', mode: 'offline' });
    expect(c.embeddings).toMatchObject({ provider: 'transformers', mode: 'offline', model: 'Xenova/bge-small-en-v1.5' });
    expect(c.multiVector).toMatchObject({ provider: 'local', mode: 'offline' });
    expect(c.llm).toMatchObject({ provider: 'none', mode: 'offline' });
    expect(c.vlm).toMatchObject({ provider: 'none', mode: 'offline' });
    expect(c.decider).toMatchObject({ provider: 'rules', mode: 'offline' });
  });

  it('treats blank values as unset', () => {
    const c = loadProviderConfig({ PORT: '', WEAVIATE_URL: '  ', LLM_PROVIDER: '' });
    expect(c.port).toBe(3000);
    expect(c.vectorDb.provider).toBe('lancedb');
    expect(c.llm.provider).toBe('none');
  });

  it('PUBLIC_URL: the address share links use, without a trailing slash; unset by default', () => {
    expect(loadProviderConfig({}).publicUrl).toBeUndefined();
    expect(loadProviderConfig({ PUBLIC_URL: ' https://manuals.example.com/ ' }).publicUrl).toBe('https://manuals.example.com');
    expect(loadProviderConfig({ PUBLIC_URL: 'http://workshop-pc:3000' }).publicUrl).toBe('http://workshop-pc:3000');
  });

  it('honours PORT, DATA_DIR and upload limits', () => {
    const c = loadProviderConfig({ PORT: '4123', DATA_DIR: '/tmp/mc-data', MAX_UPLOAD_MB: '5', MAX_PAGES: '10' });
    expect(c.port).toBe(4123);
    expect(c.dataDir).toBe('/tmp/mc-data');
    expect(c.upload).toEqual({ maxBytes: 5 * 1024 * 1024, maxPages: 10 });
  });

  it('uses a local Weaviate when WEAVIATE_URL points at this machine', () => {
    const c = loadProviderConfig({ WEAVIATE_URL: 'http://localhost:8080' });
    expect(c.vectorDb).toMatchObject({ provider: 'weaviate', mode: 'local', url: 'http://localhost:8080' });
  });

  it('uses Weaviate Cloud for a remote URL with an API key', () => {
    const c = loadProviderConfig({ WEAVIATE_URL: 'https://abc.weaviate.cloud', WEAVIATE_API_KEY: 'k' });
    expect(c.vectorDb).toMatchObject({ provider: 'weaviate', mode: 'cloud', apiKey: 'k' });
    expect(JSON.stringify(describeProviders(c))).not.toContain('"k"');
  });

  it('lets VECTOR_DB=lancedb win over a set WEAVIATE_URL', () => {
    expect(loadProviderConfig({ VECTOR_DB: 'lancedb', WEAVIATE_URL: 'http://127.0.0.1:8080' }).vectorDb.provider).toBe('lancedb');
  });

  it('selects an OpenAI-compatible server (Ollama) for LLM, VLM, embeddings and decisions', () => {
    const c = loadProviderConfig({
      OPENAI_COMPATIBLE_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_COMPATIBLE_MODEL: 'qwen2.5:7b',
      OPENAI_COMPATIBLE_VISION_MODEL: 'qwen2.5vl:7b',
      OPENAI_COMPATIBLE_EMBEDDING_MODEL: 'nomic-embed-text',
    });
    expect(c.llm).toMatchObject({ provider: 'openai-compatible', mode: 'local', model: 'qwen2.5:7b' });
    expect(c.vlm).toMatchObject({ provider: 'openai-compatible', mode: 'local', model: 'qwen2.5vl:7b' });
    expect(c.embeddings).toMatchObject({ provider: 'openai-compatible', mode: 'local', model: 'nomic-embed-text' });
    expect(c.decider).toMatchObject({ provider: 'llm', mode: 'local' });
  });

  it('shares the LLM model with the VLM role unless overridden', () => {
    const c = loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: 'https://api.example.com/v1', OPENAI_COMPATIBLE_MODEL: 'm' });
    expect(c.vlm).toMatchObject({ provider: 'openai-compatible', mode: 'cloud', model: 'm' });
  });

  it('selects Gemini for LLM and VLM from the API key alone, keeping local embeddings', () => {
    const c = loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: 'g' });
    expect(c.llm).toMatchObject({ provider: 'gemini', mode: 'cloud', model: 'gemini-2.5-flash' });
    expect(c.vlm).toMatchObject({ provider: 'gemini', mode: 'cloud' });
    expect(c.embeddings.provider).toBe('transformers');
    expect(c.decider.provider).toBe('llm');
  });

  it('selects Gemini embeddings when asked', () => {
    const c = loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: 'g', EMBEDDINGS: 'gemini' });
    expect(c.embeddings).toMatchObject({ provider: 'gemini', mode: 'cloud', model: 'gemini-embedding-001' });
  });

  it('forces the rules decider or no LLM when asked', () => {
    const c = loadProviderConfig({ GOOGLE_GENERATIVE_AI_API_KEY: 'g', DECIDER: 'rules', VLM_PROVIDER: 'none' });
    expect(c.decider.provider).toBe('rules');
    expect(c.vlm.provider).toBe('none');
    expect(c.llm.provider).toBe('gemini');
  });

  it('selects the offline embedder explicitly, and the ColQwen worker from COLQWEN_URL', () => {
    const c = loadProviderConfig({ EMBEDDINGS: 'Offline', COLQWEN_URL: 'http://127.0.0.1:8001' });
    expect(c.embeddings).toMatchObject({ provider: 'offline', mode: 'offline' });
    expect(c.multiVector).toMatchObject({ provider: 'colqwen', mode: 'local', url: 'http://127.0.0.1:8001' });
  });
});

describe('loadConfig: invalid and half-set combinations', () => {
  const cases: Array<[string, RawEnv, RegExp]> = [
    ['PORT not a number', { PORT: 'abc' }, /PORT must be a number/],
    ['PORT out of range', { PORT: '70000' }, /PORT must be 1–65535/],
    ['MAX_UPLOAD_MB negative', { MAX_UPLOAD_MB: '-1' }, /MAX_UPLOAD_MB must be positive/],
    ['unknown VECTOR_DB', { VECTOR_DB: 'pinecone' }, /VECTOR_DB must be one of: auto, lancedb, weaviate/],
    ['unknown LLM_PROVIDER', { LLM_PROVIDER: 'claude' }, /LLM_PROVIDER must be one of/],
    ['WEAVIATE_URL not a URL', { WEAVIATE_URL: 'localhost:8080' }, /WEAVIATE_URL must/],
    ['WEAVIATE_URL wrong scheme', { WEAVIATE_URL: 'ftp://x.org' }, /WEAVIATE_URL must start with http/],
    ['PUBLIC_URL not a URL', { PUBLIC_URL: 'workshop-pc:3000' }, /PUBLIC_URL must/],
    ['PUBLIC_URL wrong scheme', { PUBLIC_URL: 'ftp://workshop-pc' }, /PUBLIC_URL must start with http/],
    ['VECTOR_DB=weaviate without URL', { VECTOR_DB: 'weaviate' }, /VECTOR_DB=weaviate needs WEAVIATE_URL/],
    ['API key without Weaviate URL', { WEAVIATE_API_KEY: 'k' }, /WEAVIATE_API_KEY is set but WEAVIATE_URL is not/],
    ['remote Weaviate without API key', { WEAVIATE_URL: 'https://x.weaviate.cloud' }, /WEAVIATE_API_KEY is not set/],
    ['OpenAI model without base URL', { OPENAI_COMPATIBLE_MODEL: 'llama3' }, /OPENAI_COMPATIBLE_MODEL is set but OPENAI_COMPATIBLE_BASE_URL is not/],
    ['OpenAI key without base URL', { OPENAI_COMPATIBLE_API_KEY: 'k' }, /OPENAI_COMPATIBLE_API_KEY is set but OPENAI_COMPATIBLE_BASE_URL/],
    [
      'LLM=openai-compatible without model',
      { LLM_PROVIDER: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'http://localhost:11434/v1' },
      /needs OPENAI_COMPATIBLE_MODEL/,
    ],
    ['LLM=gemini without key', { LLM_PROVIDER: 'gemini' }, /LLM_PROVIDER=gemini needs GOOGLE_GENERATIVE_AI_API_KEY/],
    ['VLM=gemini without key', { VLM_PROVIDER: 'gemini' }, /VLM_PROVIDER=gemini needs GOOGLE_GENERATIVE_AI_API_KEY/],
    ['Gemini model without key', { GEMINI_MODEL: 'gemini-2.5-pro' }, /GEMINI_MODEL is set but GOOGLE_GENERATIVE_AI_API_KEY is not/],
    ['EMBEDDINGS=gemini without key', { EMBEDDINGS: 'gemini' }, /EMBEDDINGS=gemini needs GOOGLE_GENERATIVE_AI_API_KEY/],
    [
      'EMBEDDINGS=openai-compatible without model',
      { EMBEDDINGS: 'openai-compatible', OPENAI_COMPATIBLE_BASE_URL: 'http://localhost:11434/v1' },
      /needs OPENAI_COMPATIBLE_EMBEDDING_MODEL/,
    ],
    ['MULTIVECTOR=colqwen without URL', { MULTIVECTOR: 'colqwen' }, /MULTIVECTOR=colqwen needs COLQWEN_URL/],
    ['COLQWEN_URL with MULTIVECTOR=local', { MULTIVECTOR: 'local', COLQWEN_URL: 'http://localhost:8001' }, /COLQWEN_URL is set but MULTIVECTOR=local/],
    ['DECIDER=llm without an LLM', { DECIDER: 'llm' }, /DECIDER=llm needs an LLM/],
  ];
  it.each(cases)('%s', (_name, env, pattern) => {
    const problems = problemsOf(env);
    expect(problems.join('\n')).toMatch(pattern);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({ VECTOR_DB: 'weaviate', LLM_PROVIDER: 'gemini', MULTIVECTOR: 'colqwen' });
    // Weaviate URL, Gemini key, ColQwen URL: three separate fixes, listed together.
    expect(problems).toHaveLength(3);
  });
});

describe('isLoopbackUrl', () => {
  it.each([
    ['http://localhost:8080', true],
    ['http://127.0.0.1:1', true],
    ['http://[::1]:8080', true],
    ['https://cluster.weaviate.cloud', false],
    ['http://10.0.0.4:8080', false],
  ])('%s → %s', (url, expected) => expect(isLoopbackUrl(url)).toBe(expected));
});

describe('every variable is documented', () => {
  it('.env.example names each variable the schema and the runtime readers know', () => {
    const example = fs.readFileSync(path.join(import.meta.dirname, '..', '..', '.env.example'), 'utf8');
    const missing = ALL_ENV_VARS.filter((name) => !new RegExp(`\\b${name}=`).test(example));
    expect(missing).toEqual([]);
  });

  it('runtime numbers fall back on blank, non-numeric and non-positive values', () => {
    const env = (v: string) => ({ env: { EMBEDDING_BATCH_SIZE: v } });
    expect(runtimeNumber('EMBEDDING_BATCH_SIZE', 8, env('16'))).toBe(16);
    expect(runtimeNumber('EMBEDDING_BATCH_SIZE', 8, env(' '))).toBe(8);
    expect(runtimeNumber('EMBEDDING_BATCH_SIZE', 8, env('lots'))).toBe(8);
    expect(runtimeNumber('EMBEDDING_BATCH_SIZE', 8, env('0'))).toBe(8);
    expect(runtimeNumber('EMBEDDING_BATCH_SIZE', 8, { ...env('2.5'), integer: true })).toBe(8);
  });
});

describe('loadConfig: host binding and sign-in', () => {
  it('binds to loopback by default, where no sign-in is needed', () => {
    const c = loadProviderConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.auth.signInRequired).toBe(false);
    expect(loadProviderConfig({ HOST: 'localhost' }).auth.signInRequired).toBe(false);
  });

  it('requires sign-in on any other interface, behind a proxy, or when asked', () => {
    expect(loadProviderConfig({ HOST: '0.0.0.0' }).auth.signInRequired).toBe(true);
    expect(loadProviderConfig({ HOST: '192.168.1.20' }).auth.signInRequired).toBe(true);
    expect(loadProviderConfig({ MC_TRUSTED_PROXIES: '1' }).auth.signInRequired).toBe(true);
    expect(loadProviderConfig({ MC_AUTH: 'signin' }).auth.signInRequired).toBe(true);
  });

  it('reports half-set single sign-on and a short admin password', () => {
    expect(() => loadProviderConfig({ AUTH_OIDC_ISSUER: 'https://id.example.com' })).toThrow(/AUTH_OIDC_CLIENT_ID/);
    expect(() => loadProviderConfig({ MC_ADMIN_PASSWORD: 'short' })).toThrow(/at least 8/);
    expect(loadProviderConfig({ AUTH_OIDC_ISSUER: 'https://id.example.com', AUTH_OIDC_CLIENT_ID: 'a', AUTH_OIDC_CLIENT_SECRET: 'b' }).auth.oidc).toMatchObject({
      name: 'Single sign-on',
    });
  });
});

describe('getConfig and hostPolicy: read again only when the environment changes', () => {
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, MC_ALLOWED_HOSTS: process.env.MC_ALLOWED_HOSTS, PORT: process.env.PORT };
  const restore = () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };

  it('keeps one configuration and one host policy until a variable they read changes', () => {
    try {
      process.env.MC_ALLOWED_HOSTS = 'manuals.example.com';
      const config = getConfig();
      const policy = hostPolicy();
      expect(policy.allowedHosts).toEqual(['manuals.example.com']);
      expect(getConfig()).toBe(config);
      expect(hostPolicy()).toBe(policy);
      // Another variable: a new configuration, the same host policy.
      process.env.PORT = '4321';
      expect(getConfig()).not.toBe(config);
      expect(hostPolicy()).toBe(policy);
      process.env.MC_ALLOWED_HOSTS = 'other.example.com';
      expect(hostPolicy().allowedHosts).toEqual(['other.example.com']);
    } finally {
      restore();
    }
  });
});
