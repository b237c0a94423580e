import { describe, expect, it } from 'vitest';
import { signOwnerId, verifyOwnerCookie } from './owner';

describe('owner cookie signing', () => {
  const secret = 'test-secret';
  const id = 'AbCdEfGhIjKlMnOpQrSt_-';

  it('accepts its own signature', () => {
    expect(verifyOwnerCookie(signOwnerId(id, secret), secret)).toBe(id);
  });

  it('rejects a tampered id, a tampered mac, another secret and junk', () => {
    const signed = signOwnerId(id, secret);
    expect(verifyOwnerCookie(signed.replace(/^A/, 'B'), secret)).toBeNull();
    expect(verifyOwnerCookie(signed.slice(0, -2) + 'xx', secret)).toBeNull();
    expect(verifyOwnerCookie(signed, 'other-secret')).toBeNull();
    expect(verifyOwnerCookie(undefined, secret)).toBeNull();
    expect(verifyOwnerCookie('no-dot', secret)).toBeNull();
    expect(verifyOwnerCookie('../../etc.passwd', secret)).toBeNull();
  });
});
