import { describe, expect, it } from 'vitest';
import { redact, withoutSecrets } from './redact';

const KEY = 'sk-abcdef0123456789';

describe('redact / withoutSecrets', () => {
  it('replaces every occurrence; ignores values too short to be keys', () => {
    expect(redact(`a ${KEY} b ${KEY}`, [KEY, undefined, 'abc'])).toBe('a [redacted] b [redacted]');
  });

  it('passes a clean error through untouched (callers still classify it)', () => {
    const err = Object.assign(new Error('HTTP 503'), { statusCode: 503 });
    expect(withoutSecrets(err, [KEY])).toBe(err);
  });

  it('replaces an error that carries the key anywhere (here only in a field) by a plain copy', () => {
    const err = Object.assign(new Error(`bad key ${KEY}`), { name: 'AI_APICallError', responseBody: `{"key":"${KEY}"}` });
    const safe = withoutSecrets(err, [KEY]) as Error;
    expect(safe).not.toBe(err);
    expect(safe.name).toBe('AI_APICallError');
    expect(safe.message).toBe('bad key [redacted]');
    expect(JSON.stringify(Object.entries(safe))).not.toContain(KEY);
  });
});
