/**
 * getLLM() / getVLM(): null offline, a client per configured backend, memoised per config.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreEnv, snapshotEnv, type EnvSnapshot } from '@/test/env';
import { getLLM, getVLM, llmOptionsFromEnv } from './index';

// Every variable that can change which client comes back; cleared before each test, restored after.
const VARS = [
  'LLM_PROVIDER',
  'VLM_PROVIDER',
  'DECIDER',
  'OPENAI_COMPATIBLE_BASE_URL',
  'OPENAI_COMPATIBLE_API_KEY',
  'OPENAI_COMPATIBLE_MODEL',
  'OPENAI_COMPATIBLE_VISION_MODEL',
  'OPENAI_COMPATIBLE_EMBEDDING_MODEL',
  'EMBEDDINGS',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GEMINI_MODEL',
  'GEMINI_VISION_MODEL',
  'GEMINI_EMBEDDING_MODEL',
  'MC_LLM_TIMEOUT_MS',
  'MC_LLM_MAX_ATTEMPTS',
  'MC_LLM_RECORD',
  'MC_LLM_REPLAY',
];
let saved: EnvSnapshot;

beforeEach(() => {
  saved = snapshotEnv(VARS);
  for (const k of VARS) delete process.env[k];
});
afterEach(() => restoreEnv(saved));

describe('getLLM / getVLM', () => {
  it('return null with the default (offline) environment', () => {
    expect(getLLM()).toBeNull();
    expect(getVLM()).toBeNull();
  });

  it('return Gemini clients when a Gemini key is set, the VLM with vision and its own model', () => {
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'AIza-test-key-0000000000';
    process.env.GEMINI_VISION_MODEL = 'gemini-2.5-pro';
    const llm = getLLM()!;
    const vlm = getVLM()!;
    expect(llm).toMatchObject({ provider: 'gemini', modelId: 'gemini-2.5-flash', vision: false });
    expect(vlm).toMatchObject({ provider: 'gemini', modelId: 'gemini-2.5-pro', vision: true });
    expect(typeof llm.model).toBe('object');
    expect((llm.model as { provider: string }).provider).toMatch(/google/);
  });

  it('return OpenAI-compatible clients sharing the one model when no vision model is set', () => {
    process.env.OPENAI_COMPATIBLE_BASE_URL = 'http://localhost:11434/v1';
    process.env.OPENAI_COMPATIBLE_MODEL = 'qwen2.5vl:7b';
    expect(getLLM()).toMatchObject({ provider: 'openai-compatible', modelId: 'qwen2.5vl:7b', vision: false });
    expect(getVLM()).toMatchObject({ provider: 'openai-compatible', modelId: 'qwen2.5vl:7b', vision: true });
  });

  it('honours an explicit none for one role', () => {
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'AIza-test-key-0000000000';
    process.env.VLM_PROVIDER = 'none';
    expect(getLLM()).not.toBeNull();
    expect(getVLM()).toBeNull();
  });

  it('memoise per configuration and rebuild when the environment changes', () => {
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'AIza-test-key-0000000000';
    const a = getLLM();
    expect(getLLM()).toBe(a);
    process.env.GEMINI_MODEL = 'gemini-2.5-flash-lite';
    const b = getLLM();
    expect(b).not.toBe(a);
    expect(b!.modelId).toBe('gemini-2.5-flash-lite');
    process.env.MC_LLM_TIMEOUT_MS = '5000';
    expect(getLLM()).not.toBe(b);
  });

  it('serve a replay-only client from MC_LLM_REPLAY when no provider is configured', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mc-llm-index-'));
    const file = path.join(dir, 'calls.jsonl');
    const entry = {
      v: 1,
      key: '0'.repeat(32),
      recordedAt: new Date().toISOString(),
      role: 'llm',
      provider: 'gemini',
      modelId: 'gemini-2.5-flash',
      mode: 'generate',
      latencyMs: 1,
      request: { model: 'gemini-2.5-flash', prompt: [], settings: {} },
      response: { content: [], finishReason: { unified: 'stop' }, usage: { inputTokens: {}, outputTokens: {} }, warnings: [] },
    };
    fs.writeFileSync(file, `${JSON.stringify(entry)}\n`);
    try {
      process.env.MC_LLM_REPLAY = file;
      expect(getLLM()).toMatchObject({ provider: 'gemini', modelId: 'gemini-2.5-flash' });
      expect(getVLM()).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('llmOptionsFromEnv', () => {
  it('reads the MC_LLM_* variables and rejects nonsense with the variable name', () => {
    expect(llmOptionsFromEnv({})).toEqual({ timeoutMs: undefined, maxAttempts: undefined, record: undefined, replay: undefined });
    expect(llmOptionsFromEnv({ MC_LLM_TIMEOUT_MS: '1500', MC_LLM_MAX_ATTEMPTS: '5', MC_LLM_RECORD: ' rec.jsonl ' })).toEqual({
      timeoutMs: 1500,
      maxAttempts: 5,
      record: 'rec.jsonl',
      replay: undefined,
    });
    expect(() => llmOptionsFromEnv({ MC_LLM_MAX_ATTEMPTS: '0' })).toThrow(/MC_LLM_MAX_ATTEMPTS/);
    expect(() => llmOptionsFromEnv({ MC_LLM_TIMEOUT_MS: 'soon' })).toThrow(/MC_LLM_TIMEOUT_MS/);
  });
});
